package training

import (
	"github.com/opsboard/opsboard/sidecar-guard/internal/bipia"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Set is a named labelled set the model never trains on.
type Set struct {
	Name string
	Rows []Row
}

// Sets reads the measurement sets of the module's testdata directory:
// BIPIA's attacks placed in its emails, NotInject, and our own phrasings.
func Sets(dir string) ([]Set, error) {
	var sets []Set
	for _, part := range []string{"test", "train"} {
		s, err := bipiaSet(dir, part)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	ni, err := notInject(dir)
	if err != nil {
		return nil, err
	}
	sets = append(sets, ni...)
	for _, f := range []struct{ file, name string }{
		{"phrasings/test.jsonl", "our phrasings, test part"},
		{"phrasings/unseen.jsonl", "our phrasings, never trained on (incl. the known misses)"},
	} {
		rows, _, err := readFile(filepath.Join(dir, f.file))
		if err != nil {
			return nil, err
		}
		sets = append(sets, Set{Name: f.name, Rows: rows})
	}
	return sets, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// bipiaSet places every attack of one part at the start, the middle (the
// line break nearest the middle) and the end of every clean email of that
// part, beside the clean emails.
func bipiaSet(dir, part string) (Set, error) {
	emails, err := bipia.Emails(bipia.EmailsPath(filepath.Join(dir, "bipia"), part))
	if err != nil {
		return Set{}, err
	}
	attacks, cats, err := bipia.Attacks(bipia.AttacksPath(filepath.Join(dir, "bipia"), part))
	if err != nil {
		return Set{}, err
	}
	s := Set{Name: "BIPIA " + part + ": attacks in emails, and the clean emails"}
	for _, cat := range cats {
		for _, a := range attacks[cat] {
			for _, e := range emails {
				for _, pos := range bipia.Places {
					s.Rows = append(s.Rows, Row{Text: bipia.InsertAt(e, a, pos), Label: 1, Source: cat})
				}
			}
		}
	}
	for _, e := range emails {
		s.Rows = append(s.Rows, Row{Text: e, Label: 0, Source: "clean"})
	}
	return s, nil
}

func notInject(dir string) ([]Set, error) {
	benign := Set{Name: "NotInject one+two+three (benign, trigger words)"}
	for _, name := range []string{"one", "two", "three"} {
		var rows []struct {
			Prompt string `json:"prompt"`
		}
		if err := readJSON(filepath.Join(dir, "notinject", "NotInject_"+name+".json"), &rows); err != nil {
			return nil, err
		}
		for _, r := range rows {
			benign.Rows = append(benign.Rows, Row{Text: r.Prompt, Label: 0})
		}
	}
	var valid []struct {
		Prompt string `json:"prompt"`
		Label  int    `json:"label"`
	}
	if err := readJSON(filepath.Join(dir, "notinject", "valid.json"), &valid); err != nil {
		return nil, err
	}
	v := Set{Name: "NotInject valid.json"}
	for _, r := range valid {
		v.Rows = append(v.Rows, Row{Text: r.Prompt, Label: r.Label})
	}
	return []Set{benign, v}, nil
}
