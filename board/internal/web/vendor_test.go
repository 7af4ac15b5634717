package web

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// sumLine is one line of the sha256 block in static/vendor/README.md, as
// sha256sum prints it: the hex digest, two spaces, the file's path relative
// to static/vendor.
var sumLine = regexp.MustCompile(`^([0-9a-f]{64})  (\S+)$`)

// TestVendoredFilesMatchTheirRecordedSums checks every vendored file against
// the sha256 recorded beside it, so a library cannot change by accident (or
// by hand) without its record changing too, and every vendored script has a
// record.
func TestVendoredFilesMatchTheirRecordedSums(t *testing.T) {
	readme, err := fs.ReadFile(static, "static/vendor/README.md")
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{} // path in the embedded tree -> digest
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		if m := sumLine.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
			sums[path.Join("static/vendor", m[2])] = m[1]
		}
	}
	if len(sums) == 0 {
		t.Fatal("static/vendor/README.md records no sha256")
	}
	for p, want := range sums {
		body, err := fs.ReadFile(static, p)
		if err != nil {
			t.Errorf("%s is recorded but not there: %v", p, err)
			continue
		}
		sum := sha256.Sum256(body)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: sha256 %s, recorded %s", p, got, want)
		}
	}
	scripts, err := fs.Glob(static, "static/vendor/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range scripts {
		if _, ok := sums[p]; !ok {
			t.Errorf("%s is vendored without a recorded sha256", p)
		}
	}
}
