package web

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strings"
	"testing"
)

// routesModule is the one script that spells the board's API paths; every
// other module reaches a route through its named functions.
const routesModule = "static/js/api.js"

// TestOnlyTheRoutesModuleSpellsAPIPaths keeps each route named once: a path
// under /api written anywhere else in the page's scripts (code or comment)
// fails, with its file and line.
func TestOnlyTheRoutesModuleSpellsAPIPaths(t *testing.T) {
	scripts := 0
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		scripts++
		if p == routesModule {
			return nil
		}
		body, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(make([]byte, 0, 64*1024), len(body)+1) // vendored modules are one long line
		for n := 1; sc.Scan(); n++ {
			if strings.Contains(sc.Text(), "/api/") {
				t.Errorf("%s:%d spells an /api path; name the route in %s instead: %s", p, n, routesModule, strings.TrimSpace(sc.Text()))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if scripts < 2 {
		t.Fatalf("found %d scripts under static: the walk saw nothing to check", scripts)
	}
	routes, err := fs.ReadFile(static, routesModule)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(routes, []byte("'/api/cases'")) {
		t.Errorf("%s no longer names the routes (no '/api/cases' in it)", routesModule)
	}
}
