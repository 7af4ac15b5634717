// Package training reads the labelled guard data, trains the linear model
// from it, writes the model's record, and measures the combined detector
// (rules and model) with whole sources held out. The guard-train command
// is its front end; the sidecar never imports it.
package training

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Row is one labelled text.
type Row struct {
	Text   string `json:"text"`
	Label  int    `json:"label"` // 1 attack, 0 benign
	Source string `json:"-"`     // the file it came from, without extension
	// Origin is the row's own "source" field, where the data has one: the
	// repository, commit and file the text was taken from.
	Origin string `json:"source"`
	// Payload, when set, is what the model trains on instead of Text: the
	// attack without the benign text of Carrier (a source) it was put in.
	// Measurements still score Text, the mail as the sidecar sees it.
	Payload string `json:"-"`
	Carrier string `json:"-"`
}

// trained is the text the model learns from.
func (r Row) trained() string {
	if r.Payload != "" {
		return r.Payload
	}
	return r.Text
}

// File is one training file as the model record names it.
type File struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows"`
}

// ReadDir reads every *.jsonl file of dir in name order; each line is an
// object with text and label. Lines with other fields keep only those two.
func ReadDir(dir string) ([]Row, []File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("no .jsonl files in %s", dir)
	}
	slices.Sort(paths)
	var rows []Row
	var files []File
	for _, p := range paths {
		rs, f, err := readFile(p)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, rs...)
		files = append(files, f)
	}
	return rows, files, nil
}

func readFile(path string) ([]Row, File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, File{}, err
	}
	sum := sha256.Sum256(data)
	source := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var rows []Row
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, File{}, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if r.Label != 0 && r.Label != 1 {
			return nil, File{}, fmt.Errorf("%s:%d: label %d, want 0 or 1", path, line, r.Label)
		}
		r.Source = source
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, File{}, fmt.Errorf("%s: %w", path, err)
	}
	return rows, File{Name: filepath.Base(path), SHA256: hex.EncodeToString(sum[:]), Rows: len(rows)}, nil
}

// ReadTemplates reads attacks.txt (label 1) and benign.txt (label 0) of
// dir, one template a line, and expands each: "{a|b} c" gives "a c" and
// "b c". Lines starting with # are comments. The source is the folder's
// name, so a held-out measurement can report it apart.
func ReadTemplates(dir string) ([]Row, []File, error) {
	var rows []Row
	var files []File
	source := "own_" + filepath.Base(dir)
	for _, part := range []struct {
		name  string
		label int
	}{{"attacks.txt", 1}, {"benign.txt", 0}} {
		path := filepath.Join(dir, part.name)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		n := 0
		for line := range strings.SplitSeq(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			for _, t := range Expand(line) {
				rows = append(rows, Row{Text: t, Label: part.label, Source: source})
				n++
			}
		}
		sum := sha256.Sum256(data)
		files = append(files, File{Name: filepath.Base(dir) + "/" + part.name, SHA256: hex.EncodeToString(sum[:]), Rows: n})
	}
	return rows, files, nil
}

// Expand returns every text a template stands for, in order, with spaces
// collapsed. Groups do not nest; a template without braces is itself.
func Expand(t string) []string {
	out := expand(t)
	for i, s := range out {
		out[i] = strings.Join(strings.Fields(s), " ")
	}
	return out
}

func expand(t string) []string {
	open := strings.IndexByte(t, '{')
	if open < 0 {
		return []string{t}
	}
	end := strings.IndexByte(t[open:], '}')
	if end < 0 {
		return []string{t}
	}
	end += open
	var out []string
	for _, alt := range strings.Split(t[open+1:end], "|") {
		for _, rest := range expand(t[end+1:]) {
			out = append(out, t[:open]+alt+rest)
		}
	}
	return out
}
