package wire_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

// TestReadmeListsEveryLimit holds the README's Limits table to the Go one,
// row for row and in order, so a limit changed, added or dropped in either
// place fails here until both say the same.
func TestReadmeListsEveryLimit(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	got, err := readmeLimits(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wire.Limits(), got); diff != "" {
		t.Errorf("README.md's Limits table differs from wire.Limits (-Go +README)\n%s", diff)
	}
}

func TestLimitNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range wire.Limits() {
		if seen[l.Name] {
			t.Errorf("limit %q listed twice", l.Name)
		}
		seen[l.Name] = true
	}
}

// readmeLimits is the rows of the table under "## Limits", header and rule
// left out.
func readmeLimits(readme string) ([]wire.Limit, error) {
	_, section, ok := strings.Cut(readme, "\n## Limits\n")
	if !ok {
		return nil, errNoSection
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []wire.Limit
	for _, line := range strings.Split(section, "\n") {
		cells, ok := tableRow(line)
		if !ok || cells[0] == "Limit" || strings.Trim(cells[0], "-: ") == "" {
			continue
		}
		rows = append(rows, wire.Limit{Name: cells[0], Value: cells[1], AppliesTo: cells[2]})
	}
	return rows, nil
}

// tableRow splits a Markdown table line of three cells.
func tableRow(line string) ([]string, bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
		return nil, false
	}
	cells := strings.Split(line[1:len(line)-1], "|")
	if len(cells) != 3 {
		return nil, false
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells, true
}

var errNoSection = errors.New(`README.md has no "## Limits" section`)
