// Package nameset is the watermark of sources whose messages are files: the
// set of names already taken, kept as a sorted JSON list.
package nameset

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Set is a set of taken names.
type Set map[string]struct{}

type wire struct {
	Taken []string `json:"taken"`
}

// Decode reads a watermark; "" is the empty set.
func Decode(watermark string) (Set, error) {
	s := Set{}
	if strings.TrimSpace(watermark) == "" {
		return s, nil
	}
	var w wire
	if err := json.Unmarshal([]byte(watermark), &w); err != nil {
		return nil, fmt.Errorf("decode watermark: %w", err)
	}
	for _, n := range w.Taken {
		s[n] = struct{}{}
	}
	return s, nil
}

// Prune drops names no longer present, so the watermark stays as small as the
// folder it describes.
func (s Set) Prune(present map[string]string) {
	for n := range s {
		if _, ok := present[n]; !ok {
			delete(s, n)
		}
	}
}

// Todo prunes the set to the names present and returns the present names not
// yet taken, sorted: what a folder source reads next, in order.
func (s Set) Todo(present map[string]string) []string {
	s.Prune(present)
	var todo []string
	for n := range present {
		if _, ok := s[n]; !ok {
			todo = append(todo, n)
		}
	}
	slices.Sort(todo)
	return todo
}

// Encode writes the set as a watermark, names sorted so equal sets give equal text.
func (s Set) Encode() string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	b, _ := json.Marshal(wire{Taken: names}) // a []string always marshals
	return string(b)
}

// Appender builds the watermark as names are taken, one at a time. Each call
// copies the text once instead of sorting and encoding the whole set again, so
// a first read of a folder of 10,000 files stays fast. Names added after the
// start follow the sorted ones in the order taken.
type Appender struct {
	buf   []byte // the watermark without its closing "]}"
	empty bool
}

// Appender starts from the set as it is now.
func (s Set) Appender() *Appender {
	enc := s.Encode()
	return &Appender{buf: []byte(enc[:len(enc)-2]), empty: len(s) == 0}
}

// Add takes one more name and returns the watermark that includes it.
func (a *Appender) Add(name string) string {
	if !a.empty {
		a.buf = append(a.buf, ',')
	}
	a.empty = false
	q, _ := json.Marshal(name) // a string always marshals
	a.buf = append(a.buf, q...)
	return string(a.buf) + "]}"
}
