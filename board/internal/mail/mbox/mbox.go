// Package mbox reads an mbox file (mboxrd) as a mail source.
//
// Every line that starts with "From " begins a message; a body line that
// started with "From " was written as ">From " (and ">From " as ">>From "), so
// one '>' is taken off such lines. A message's Ref is the byte offset of its
// "From " line. The watermark is the file's inode and the offset after the last
// whole message: a new inode (the file replaced), a file now shorter than the
// offset, or an offset that no longer starts a message restart from the top.
//
// The last message in the file is whole only when the file ends with a blank
// line, as mbox writers leave it; until then it may be half written and waits
// for the next run.
package mbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/mail"
)

// Source is one mbox file; it is only read, never changed.
type Source struct {
	path string
}

// New returns the mbox file at path.
func New(path string) *Source { return &Source{path: path} }

var _ mail.Source = (*Source)(nil)

// Watermark is the position reached in an mbox file.
type Watermark struct {
	Inode  uint64 `json:"inode"`
	Offset int64  `json:"offset"`
}

func decodeWatermark(s string) (Watermark, error) {
	var w Watermark
	if strings.TrimSpace(s) == "" {
		return w, nil
	}
	if err := json.Unmarshal([]byte(s), &w); err != nil || w.Offset < 0 {
		return w, fmt.Errorf("%w: %q", mail.ErrBadWatermark, s)
	}
	return w, nil
}

func (w Watermark) String() string {
	b, _ := json.Marshal(w) // two numbers always marshal
	return string(b)
}

// Read calls fn for each whole message after the watermark, in file order.
func (s *Source) Read(ctx context.Context, after string, fn func(mail.Mail, string) error) error {
	w, err := decodeWatermark(after)
	if err != nil {
		return fmt.Errorf("mbox %s: %w", s.path, err)
	}
	f, err := os.Open(s.path)
	if err != nil {
		return fmt.Errorf("open mbox: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat mbox: %w", err)
	}
	ino := inode(fi)
	start := w.Offset
	if w.Inode != ino || start > fi.Size() || (start > 0 && start < fi.Size() && !startsMessage(f, start)) {
		start = 0
	}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return fmt.Errorf("seek mbox %s: %w", s.path, err)
	}
	return Scan(ctx, bufio.NewReaderSize(f, 64<<10), start, false, func(off, end int64, raw []byte) error {
		m, _ := mail.ParseSized(raw, end-off) // a broken mail is still delivered (see mail.Parse)
		m.Ref = strconv.FormatInt(off, 10)
		return fn(m, Watermark{Inode: ino, Offset: end}.String())
	})
}

// startsMessage reports whether a "From " line begins at off.
func startsMessage(f *os.File, off int64) bool {
	buf := make([]byte, 5)
	n, _ := f.ReadAt(buf, off)
	return string(buf[:n]) == "From "
}

// Get returns the message whose "From " line is at byte offset ref. After the
// file is rewritten another message may start there; callers that replay check
// its Message-ID.
func (s *Source) Get(ctx context.Context, ref string) (mail.Mail, error) {
	off, err := strconv.ParseInt(ref, 10, 64)
	if err != nil || off < 0 {
		return mail.Mail{}, fmt.Errorf("mbox ref %q: %w", ref, mail.ErrNotFound)
	}
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return mail.Mail{}, fmt.Errorf("mbox %s: %w", s.path, mail.ErrNotFound)
	}
	if err != nil {
		return mail.Mail{}, fmt.Errorf("open mbox: %w", err)
	}
	defer f.Close()
	if !startsMessage(f, off) {
		return mail.Mail{}, fmt.Errorf("mbox %s at %d: %w", s.path, off, mail.ErrNotFound)
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return mail.Mail{}, fmt.Errorf("seek mbox %s: %w", s.path, err)
	}
	var out mail.Mail
	found := false
	errStop := errors.New("stop")
	err = Scan(ctx, bufio.NewReader(f), off, true, func(start, end int64, raw []byte) error {
		out, _ = mail.ParseSized(raw, end-start)
		found = true
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return mail.Mail{}, err
	}
	if !found {
		return mail.Mail{}, fmt.Errorf("mbox %s at %d: %w", s.path, off, mail.ErrNotFound)
	}
	out.Ref = ref
	return out, nil
}

// Scan splits mboxrd text read from r (which starts at byte offset base) into
// messages. For each it calls fn with the offset of its "From " line, the offset
// just after it, and the message unescaped, without the "From " line and without
// the blank line that separates it from the next. Text before the first "From "
// line is skipped. The last message is passed only when the text ends with a
// blank line, or when partialLast is set.
func Scan(ctx context.Context, r *bufio.Reader, base int64, partialLast bool, fn func(off, end int64, raw []byte) error) error {
	pos := base
	var (
		cur     []byte
		curOff  int64 = -1
		blank   bool  // the last line read was empty
		endedNL = true
	)
	emit := func(end int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		msg := trimSeparator(cur)
		// The raw bytes are handed on: copy so the next message can reuse cur.
		return fn(curOff, end, bytes.Clone(msg))
	}
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := bytes.Clone(line)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read mbox at %d: %w", pos, err)
		}
		if len(line) > 0 {
			if bytes.HasPrefix(line, []byte("From ")) && endedNL {
				if curOff >= 0 {
					if err := emit(pos); err != nil {
						return err
					}
				}
				cur, curOff = cur[:0], pos
			} else if curOff >= 0 && len(cur) <= mail.MaxRaw {
				// Past the raw limit the rest is only counted (off to end):
				// the parser would cut it anyway.
				cur = append(cur, unescape(line)...)
			}
			blank = len(bytes.TrimRight(line, "\r\n")) == 0 && line[len(line)-1] == '\n'
			endedNL = line[len(line)-1] == '\n'
			pos += int64(len(line))
		}
		if errors.Is(err, io.EOF) {
			if curOff >= 0 && (blank || partialLast) {
				return emit(pos)
			}
			return nil
		}
	}
}

// unescape takes one '>' off a line of the form ">+From ".
func unescape(line []byte) []byte {
	i := 0
	for i < len(line) && line[i] == '>' {
		i++
	}
	if i > 0 && bytes.HasPrefix(line[i:], []byte("From ")) {
		return line[1:]
	}
	return line
}

// trimSeparator drops the one blank line an mbox writer puts after a message.
func trimSeparator(b []byte) []byte {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n\r\n")):
		return b[:len(b)-2]
	case bytes.HasSuffix(b, []byte("\n\n")):
		return b[:len(b)-1]
	}
	return b
}
