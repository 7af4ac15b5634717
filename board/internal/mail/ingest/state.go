package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// state is the watermarks file: per source, the opaque watermark its reader
// handed over with the last message that is durable on the board, and the
// since date (YYYY-MM-DD) its last read applied, so a later run keeps the
// cutoff a first run chose and knows when an earlier one asks for a rescan.
type state struct {
	path    string
	Sources map[string]string `json:"sources"`
	Since   map[string]string `json:"since,omitempty"`
}

func loadState(path string) (*state, error) {
	st := &state{path: path, Sources: map[string]string{}, Since: map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to read every source from the start; the board drops what it already holds)", path, err)
	}
	if st.Sources == nil {
		st.Sources = map[string]string{}
	}
	if st.Since == nil {
		st.Since = map[string]string{}
	}
	return st, nil
}

// save replaces the file whole (write aside, then rename), so a kill leaves
// the old watermarks or the new ones, never half of either. It does not
// fsync: a watermark lost to a power cut only makes the next run re-read
// mail the board already holds, which the board's dedupe turns into no write.
func (st *state) save() error {
	data, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return fmt.Errorf("encode watermarks: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(st.path), "."+filepath.Base(st.path)+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write watermarks: %w", err)
	}
	if err := os.Rename(tmp, st.path); err != nil {
		return fmt.Errorf("write watermarks: %w", err)
	}
	return nil
}
