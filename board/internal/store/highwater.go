package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// HighWater is the highest version and id counters the board ever handed
// out. It lives in its own small file beside the lock, rewritten in place
// with every journal batch, so it survives damage to the journal and the
// document: whatever they lost, the board continues above it and never
// mints a version or an id twice.
//
// Syncing the file with every batch would double the fsyncs a write waits
// for. So the exact marks are written with each batch but synced only now
// and then: they survive a killed process (the page cache keeps them), not
// always a power cut. The ceiling is synced before any batch goes past it,
// and it is set well ahead (CeilingStep versions, CeilingIDs ids per prefix),
// so it is durable and always at or above anything ever handed out.
type HighWater struct {
	// Acked is the newest version known acknowledged: every version at or
	// below it was answered as saved. A state rebuilt below it lost writes.
	Acked int64 `json:"acked"`
	// Version is the highest version ever written (possibly by a batch a
	// crash cut off before its answer); the next version is above it.
	Version int64 `json:"version"`
	// Counters are the id counters as of Version, by prefix (CASE, MSG...).
	Counters map[string]int64 `json:"counters,omitempty"`
	// Ceiling and CeilingCounters are durable upper bounds of Version and
	// Counters: no version or id above them was ever handed out.
	Ceiling         int64            `json:"ceiling"`
	CeilingCounters map[string]int64 `json:"ceilingCounters,omitempty"`
}

// How far ahead of the newest version and ids the durable ceiling is set.
const (
	CeilingStep = 4096
	CeilingIDs  = 256
)

// HighWaterPath is where the high-water mark of the document at docPath lives.
func HighWaterPath(docPath string) string { return docPath + ".highwater" }

// ReadHighWater reads the high-water mark kept beside the document at
// docPath. A missing file reads as zero (a board that never wrote, or one
// from before the mark existed); a damaged one is an error, and a caller
// that must go on treats it as zero.
func ReadHighWater(docPath string) (HighWater, error) {
	data, err := os.ReadFile(HighWaterPath(docPath))
	if errors.Is(err, fs.ErrNotExist) {
		return HighWater{}, nil
	}
	if err != nil {
		return HighWater{}, fmt.Errorf("read high-water mark: %w", err)
	}
	return decodeHighWater(data)
}

// Raise lifts the version and every counter to at least the exact marks:
// what a start does when the journal is intact.
func (hw HighWater) Raise(version *int64, counters map[string]int64) {
	raise(version, counters, hw.Version, hw.Counters)
}

// RaiseToCeiling lifts the version and every counter to at least the
// durable ceiling: what a start does when anything may have been lost, and
// what a tool that replaces the document (a restore) does, so that no
// version or id is ever handed out twice.
func (hw HighWater) RaiseToCeiling(version *int64, counters map[string]int64) {
	raise(version, counters, max(hw.Version, hw.Ceiling), hw.Counters)
	raise(version, counters, 0, hw.CeilingCounters)
}

func raise(version *int64, counters map[string]int64, v int64, c map[string]int64) {
	*version = max(*version, v)
	for k, n := range c {
		if n > counters[k] {
			counters[k] = n
		}
	}
}

// covers reports whether hw's ceiling covers version and counters.
func (hw HighWater) covers(version int64, counters map[string]int64) bool {
	if version > hw.Ceiling {
		return false
	}
	for k, n := range counters {
		if n > hw.CeilingCounters[k] {
			return false
		}
	}
	return true
}

// withCeiling sets the ceiling well above version and counters.
func (hw HighWater) withCeiling(version int64, counters map[string]int64) HighWater {
	hw.Ceiling = version + CeilingStep
	hw.CeilingCounters = make(map[string]int64, len(counters))
	for k, n := range counters {
		hw.CeilingCounters[k] = n + CeilingIDs
	}
	return hw
}

// The file is "<crc32c hex> <json>\n" padded with spaces to a fixed size, so
// a rewrite in place never changes its length and a sync of its data alone
// (no metadata) makes it durable.
const highWaterSize = 4096

func encodeHighWater(hw HighWater) ([]byte, error) {
	body, err := json.Marshal(hw)
	if err != nil {
		return nil, fmt.Errorf("encode high-water mark: %w", err)
	}
	// Written with every journal batch: one allocation of the file's size.
	out := fmt.Appendf(make([]byte, 0, max(highWaterSize, len(body)+10)), "%08x ", crc32.Checksum(body, crcTable))
	out = append(append(out, body...), '\n')
	pad := len(out)
	out = out[:max(pad, highWaterSize)]
	for i := pad; i < len(out); i++ {
		out[i] = ' '
	}
	return out, nil
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func decodeHighWater(data []byte) (HighWater, error) {
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	if len(line) < 10 || line[8] != ' ' {
		return HighWater{}, errors.New("high-water mark is damaged")
	}
	sum, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil || uint32(sum) != crc32.Checksum(line[9:], crcTable) {
		return HighWater{}, errors.New("high-water mark is damaged (checksum)")
	}
	var hw HighWater
	if err := json.Unmarshal(line[9:], &hw); err != nil {
		return HighWater{}, fmt.Errorf("high-water mark is damaged: %w", err)
	}
	return hw, nil
}

// highWaterFile is the open mark the committer rewrites with each batch.
type highWaterFile struct {
	f    *os.File
	last HighWater
}

func openHighWater(docPath string, hw HighWater) (*highWaterFile, error) {
	hw = hw.withCeiling(max(hw.Version, hw.Ceiling), hw.Counters)
	f, err := os.OpenFile(HighWaterPath(docPath), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open high-water mark: %w", err)
	}
	h := &highWaterFile{f: f}
	if err := h.write(hw); err != nil {
		f.Close()
		return nil, err
	}
	if err := h.sync(); err != nil {
		f.Close()
		return nil, err
	}
	return h, nil
}

// write puts hw in place; sync makes it durable. next carries the last
// ceiling forward and reports whether the batch goes past it, so the file
// must be synced before the batch is answered.
func (h *highWaterFile) write(hw HighWater) error {
	data, err := encodeHighWater(hw)
	if err != nil {
		return err
	}
	if _, err := h.f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("write high-water mark: %w", err)
	}
	h.last = hw
	return nil
}

func (h *highWaterFile) next(acked, version int64, counters map[string]int64) (HighWater, bool) {
	hw := HighWater{Acked: acked, Version: version, Counters: counters, Ceiling: h.last.Ceiling, CeilingCounters: h.last.CeilingCounters}
	if hw.covers(version, counters) {
		return hw, false
	}
	return hw.withCeiling(version, counters), true
}

func (h *highWaterFile) sync() error {
	if err := syscall.Fdatasync(int(h.f.Fd())); err != nil {
		return fmt.Errorf("sync high-water mark: %w", err)
	}
	return nil
}

func (h *highWaterFile) close() error { return h.f.Close() }
