// Package bipia reads the email task of the BIPIA benchmark (clean emails
// and task-hijack attack strings by category) and places an attack inside
// an email the way the guard's measurements and training do. It is the one
// place that knows the files' shapes; it does no I/O beyond reading them.
package bipia

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Places are where an attack goes in an email, in the order measured.
var Places = []string{"start", "middle", "end"}

// EmailsPath and AttacksPath name the files of one part ("train" or "test")
// in a BIPIA directory.
func EmailsPath(dir, part string) string {
	return filepath.Join(dir, "benchmark_email_"+part+".jsonl")
}

func AttacksPath(dir, part string) string {
	return filepath.Join(dir, "benchmark_text_attack_"+part+".json")
}

// Emails reads the clean emails of a JSON-lines file (field "context").
func Emails(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e struct {
			Context string `json:"context"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, e.Context)
	}
	return out, nil
}

// Attacks reads the attack strings by category, and the categories sorted.
func Attacks(path string) (map[string][]string, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var m map[string][]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, slices.Sorted(maps.Keys(m)), nil
}

// InsertAt places attack at the start, the middle or the end of email. The
// middle is the line break nearest the middle of the text, or the nearest
// space when the email is one line.
func InsertAt(email, attack, where string) string {
	switch where {
	case "start":
		return attack + "\n" + email
	case "end":
		return email + "\n" + attack
	}
	mid := len(email) / 2
	cut := nearest(email, mid, '\n')
	if cut < 0 {
		cut = nearest(email, mid, ' ')
	}
	if cut < 0 {
		cut = mid
	}
	return email[:cut] + "\n" + attack + "\n" + email[cut:]
}

func nearest(s string, mid int, c byte) int {
	for d := 0; d <= len(s); d++ {
		if mid-d >= 0 && mid-d < len(s) && s[mid-d] == c {
			return mid - d
		}
		if mid+d < len(s) && s[mid+d] == c {
			return mid + d
		}
	}
	return -1
}
