package store

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

// syncEvery bounds how much of a file being written is dirty in memory: it
// syncs after every few megabytes. A journal fsync may have to wait for other
// files' dirty pages (ext4 orders data before the metadata it commits), so a
// whole document flushed at once shows up as a stall in write latency.
type syncEvery struct {
	f       *os.File
	pending int
}

const syncChunk = 4 << 20

func (w *syncEvery) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.pending += n
	if err == nil && w.pending >= syncChunk {
		w.pending = 0
		err = w.f.Sync()
	}
	return n, err
}

// writeFileWith streams fill into a new file at path and fsyncs it.
func writeFileWith(path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(&syncEvery{f: f}, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeFileSync writes data to path and fsyncs it before returning.
func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// syncDir makes a rename or create in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
