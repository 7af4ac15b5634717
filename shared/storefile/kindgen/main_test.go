package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFilesAreCurrent fails when the table of kinds changed but
// the files generated from it were not written again.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for pkg, path := range map[string]string{
		"storefile": "../kinds_gen.go",
		"store":     "../../../board/internal/store/kinds_gen.go",
	} {
		want, err := generate(templates[pkg])
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what kindgen writes now: run go generate in its package", path)
		}
	}
}
