package saved_test

import (
	"testing"

	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestLookup(t *testing.T) {
	d := &wire.Doc{
		Views:     wire.ListOf([]*wire.View{{ID: "VIEW-1", Name: "mine"}, {ID: "VIEW-2", Name: "work"}}...),
		Templates: wire.ListOf([]*wire.Template{{ID: "TPL-1", Name: "trip"}}...),
	}
	name := func(v *wire.View, t *wire.Template) string {
		switch {
		case v != nil:
			return v.Name
		case t != nil:
			return t.Name
		}
		return ""
	}
	for _, tc := range []struct {
		name, want, wantErr string
		get                 func() (string, error)
	}{
		{"a view", "work", "", func() (string, error) { v, err := saved.View(d, "VIEW-2"); return name(v, nil), err }},
		{"no such view", "", "view VIEW-9 not found", func() (string, error) { v, err := saved.View(d, "VIEW-9"); return name(v, nil), err }},
		{"a template", "trip", "", func() (string, error) { t, err := saved.Template(d, "TPL-1"); return name(nil, t), err }},
		{"no such template", "", "template VIEW-1 not found", func() (string, error) { t, err := saved.Template(d, "VIEW-1"); return name(nil, t), err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.get()
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tc.want || gotErr != tc.wantErr {
				t.Errorf("got %q, %q; want %q, %q", got, gotErr, tc.want, tc.wantErr)
			}
		})
	}
}
