// Package seal is the encryption format of off-site backups: a stream
// encrypted with AES-256-GCM in fixed-size chunks under a key derived by
// scrypt from a passphrase, in the manner of age's STREAM construction.
//
// A sealed file is a header followed by chunks:
//
//	magic "OPSBAK\r\n" (8) | format 1 (1) | log2 N (1) | r (1) | p (1) |
//	chunk size (4, big endian) | salt (16) | nonce prefix (7) | header MAC (32)
//	chunk 0 | chunk 1 | ... | last chunk
//
// scrypt over the passphrase and salt gives 64 bytes: an AES-256 key and a
// MAC key. The header MAC (HMAC-SHA256 of the header before it) tells a
// wrong passphrase apart from damage. Each chunk is the GCM seal of up to
// chunk size bytes of plaintext, its nonce the prefix, a 4-byte big-endian
// counter and a last-chunk flag byte, with the whole header as additional
// data. Only the last chunk may be short, and only it carries the flag, so
// truncation, reordering, dropped or appended chunks all fail a tag.
// Memory stays bounded by one chunk whatever the stream's length.
package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/scrypt"
)

// Magic opens every sealed file.
const Magic = "OPSBAK\r\n"

// Format is the version of the layout above.
const Format = 1

const (
	saltSize   = 16
	prefixSize = 7
	macSize    = sha256.Size
	tagSize    = 16
	// HeaderSize is the length of the header, MAC included.
	HeaderSize = len(Magic) + 1 + 3 + 4 + saltSize + prefixSize + macSize
	// MaxChunk bounds the chunk size a reader accepts, so a damaged header
	// cannot make it allocate without limit.
	MaxChunk = 16 << 20
	// MaxWork bounds scrypt's cost, 128·r·N·p bytes worked through (its
	// memory is 128·r·N): 32 times the defaults'. A reader refuses more
	// before deriving a key, so a damaged header cannot make it allocate
	// or compute without limit.
	MaxWork = 1 << 30
)

// Params are the scrypt cost and the chunk size of a new file. The zero
// value means the defaults.
type Params struct {
	LogN  uint8 // scrypt N = 2^LogN
	R, P  uint8
	Chunk uint32 // plaintext bytes per chunk
}

// Defaults: scrypt N=2^15, r=8, p=1 (32 MiB, tens of milliseconds) and 64 KiB chunks.
var Defaults = Params{LogN: 15, R: 8, P: 1, Chunk: 64 << 10}

// workable says whether the scrypt cost is within MaxWork.
func (p Params) workable() bool {
	return p.LogN < 32 && 128*uint64(p.R)*uint64(p.P)<<p.LogN <= MaxWork
}

func (p Params) orDefaults() Params {
	if p.LogN == 0 {
		p.LogN = Defaults.LogN
	}
	if p.R == 0 {
		p.R = Defaults.R
	}
	if p.P == 0 {
		p.P = Defaults.P
	}
	if p.Chunk == 0 {
		p.Chunk = Defaults.Chunk
	}
	return p
}

// Errors a reader returns, for callers that name the gate that failed.
var (
	ErrMagic    = errors.New("not a sealed backup (bad magic)")
	ErrHeader   = errors.New("sealed backup header is damaged")
	ErrWrongKey = errors.New("wrong passphrase, or the header is damaged (header MAC does not match)")
	ErrAuth     = errors.New("authentication tag does not match: the file is damaged, truncated or reordered")
)

// Header is what a sealed file's header says.
type Header struct {
	Format uint8
	Params Params
	Salt   [saltSize]byte
	Prefix [prefixSize]byte
	raw    []byte // the encoded header, MAC included: every chunk's additional data
}

func (h *Header) body() []byte {
	b := make([]byte, 0, HeaderSize)
	b = append(b, Magic...)
	b = append(b, h.Format, h.Params.LogN, h.Params.R, h.Params.P)
	b = binary.BigEndian.AppendUint32(b, h.Params.Chunk)
	b = append(b, h.Salt[:]...)
	return append(b, h.Prefix[:]...)
}

// keys derives the AEAD and the MAC key from the passphrase.
func (h *Header) keys(passphrase string) (cipher.AEAD, []byte, error) {
	k, err := scrypt.Key([]byte(passphrase), h.Salt[:], 1<<h.Params.LogN, int(h.Params.R), int(h.Params.P), 64)
	if err != nil {
		return nil, nil, fmt.Errorf("derive key: %w", err)
	}
	block, err := aes.NewCipher(k[:32])
	if err != nil {
		return nil, nil, fmt.Errorf("cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, nil, fmt.Errorf("cipher: %w", err)
	}
	return aead, k[32:], nil
}

func mac(key, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	return m.Sum(nil)
}

func nonce(dst []byte, prefix [prefixSize]byte, counter uint32, last bool) []byte {
	dst = append(dst[:0], prefix[:]...)
	dst = binary.BigEndian.AppendUint32(dst, counter)
	if last {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// Writer seals what is written to it; Close seals the last chunk. Close
// does not close the underlying writer.
type Writer struct {
	w       io.Writer
	aead    cipher.AEAD
	h       *Header
	buf     []byte // plaintext waiting, up to one chunk
	out     []byte
	nonce   []byte
	counter uint32
	closed  bool
	err     error
}

// NewWriter writes a header to w and returns the writer of the chunks.
// rnd supplies the salt and the nonce prefix (nil means crypto/rand).
func NewWriter(w io.Writer, passphrase string, p Params, rnd io.Reader) (*Writer, error) {
	if passphrase == "" {
		return nil, errors.New("seal: empty passphrase")
	}
	p = p.orDefaults()
	if p.Chunk > MaxChunk {
		return nil, fmt.Errorf("seal: chunk size %d over %d", p.Chunk, MaxChunk)
	}
	if !p.workable() {
		return nil, fmt.Errorf("seal: scrypt cost N=2^%d r=%d p=%d over %d", p.LogN, p.R, p.P, MaxWork)
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	h := &Header{Format: Format, Params: p}
	if _, err := io.ReadFull(rnd, h.Salt[:]); err != nil {
		return nil, fmt.Errorf("seal: salt: %w", err)
	}
	if _, err := io.ReadFull(rnd, h.Prefix[:]); err != nil {
		return nil, fmt.Errorf("seal: nonce prefix: %w", err)
	}
	aead, macKey, err := h.keys(passphrase)
	if err != nil {
		return nil, err
	}
	body := h.body()
	h.raw = append(body, mac(macKey, body)...)
	if _, err := w.Write(h.raw); err != nil {
		return nil, fmt.Errorf("seal: write header: %w", err)
	}
	return &Writer{w: w, aead: aead, h: h, buf: make([]byte, 0, p.Chunk),
		out: make([]byte, 0, int(p.Chunk)+tagSize)}, nil
}

func (sw *Writer) Write(p []byte) (int, error) {
	if sw.err != nil {
		return 0, sw.err
	}
	if sw.closed {
		return 0, errors.New("seal: write after close")
	}
	n := 0
	for len(p) > 0 {
		// A full buffer is sealed only once more data arrives: only then is
		// it known not to be the last chunk.
		if len(sw.buf) == cap(sw.buf) {
			if err := sw.seal(false); err != nil {
				return n, err
			}
		}
		k := copy(sw.buf[len(sw.buf):cap(sw.buf)], p)
		sw.buf = sw.buf[:len(sw.buf)+k]
		p = p[k:]
		n += k
	}
	return n, nil
}

func (sw *Writer) seal(last bool) error {
	if sw.counter == ^uint32(0) {
		sw.err = errors.New("seal: stream too long")
		return sw.err
	}
	sw.nonce = nonce(sw.nonce, sw.h.Prefix, sw.counter, last)
	sw.out = sw.aead.Seal(sw.out[:0], sw.nonce, sw.buf, sw.h.raw)
	if _, err := sw.w.Write(sw.out); err != nil {
		sw.err = fmt.Errorf("seal: write chunk %d: %w", sw.counter, err)
		return sw.err
	}
	sw.counter++
	sw.buf = sw.buf[:0]
	return nil
}

// Close seals the last chunk (empty when nothing is waiting).
func (sw *Writer) Close() error {
	if sw.err != nil {
		return sw.err
	}
	if sw.closed {
		return nil
	}
	sw.closed = true
	return sw.seal(true)
}

// readHeader reads and checks the header's shape (not its MAC).
func readHeader(r io.Reader) (*Header, error) {
	raw := make([]byte, HeaderSize)
	n, err := io.ReadFull(r, raw)
	if n < len(Magic) || !bytes.Equal(raw[:len(Magic)], []byte(Magic)) {
		if err != nil && n < len(Magic) && n > 0 && bytes.HasPrefix([]byte(Magic), raw[:n]) {
			return nil, fmt.Errorf("%w: the file ends inside the header", ErrHeader)
		}
		return nil, ErrMagic
	}
	if err != nil {
		return nil, fmt.Errorf("%w: the file ends inside the header", ErrHeader)
	}
	h := &Header{raw: raw}
	i := len(Magic)
	h.Format, h.Params.LogN, h.Params.R, h.Params.P = raw[i], raw[i+1], raw[i+2], raw[i+3]
	i += 4
	h.Params.Chunk = binary.BigEndian.Uint32(raw[i:])
	i += 4
	i += copy(h.Salt[:], raw[i:])
	copy(h.Prefix[:], raw[i:])
	switch {
	case h.Format != Format:
		return nil, fmt.Errorf("%w: format %d, this board reads %d", ErrHeader, h.Format, Format)
	case h.Params.LogN < 1 || h.Params.R == 0 || h.Params.P == 0 || !h.Params.workable():
		return nil, fmt.Errorf("%w: scrypt parameters out of range", ErrHeader)
	case h.Params.Chunk == 0 || h.Params.Chunk > MaxChunk:
		return nil, fmt.Errorf("%w: chunk size %d", ErrHeader, h.Params.Chunk)
	}
	return h, nil
}

// Reader opens a sealed stream chunk by chunk. A Read fails with an error
// wrapping ErrAuth at the first chunk whose tag does not match.
type Reader struct {
	r       io.Reader
	aead    cipher.AEAD
	h       *Header
	in      []byte // one sealed chunk plus one byte of look-ahead
	plain   []byte
	pos     int
	nonce   []byte
	counter uint32
	done    bool
	err     error
}

// NewReader reads the header from r and checks the passphrase against its
// MAC: errors wrap ErrMagic, ErrHeader or ErrWrongKey.
func NewReader(r io.Reader, passphrase string) (*Reader, error) {
	h, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	aead, macKey, err := h.keys(passphrase)
	if err != nil {
		return nil, err
	}
	body := h.raw[:HeaderSize-macSize]
	if !hmac.Equal(mac(macKey, body), h.raw[HeaderSize-macSize:]) {
		return nil, ErrWrongKey
	}
	size := int(h.Params.Chunk) + tagSize
	return &Reader{r: r, aead: aead, h: h, in: make([]byte, 0, size+1), plain: make([]byte, 0, h.Params.Chunk)}, nil
}

func (sr *Reader) Read(p []byte) (int, error) {
	for sr.pos == len(sr.plain) {
		if sr.err != nil {
			return 0, sr.err
		}
		if sr.done {
			return 0, io.EOF
		}
		sr.err = sr.next()
	}
	n := copy(p, sr.plain[sr.pos:])
	sr.pos += n
	return n, nil
}

// next opens the following chunk. A chunk is the last when nothing follows
// it, which the look-ahead byte tells.
func (sr *Reader) next() error {
	size := int(sr.h.Params.Chunk) + tagSize
	have := len(sr.in)
	sr.in = sr.in[:size+1]
	n, err := io.ReadFull(sr.r, sr.in[have:])
	sr.in = sr.in[:have+n]
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read chunk %d: %w", sr.counter, err)
	}
	last := len(sr.in) <= size
	chunk := sr.in
	if !last {
		chunk = sr.in[:size]
	}
	if len(chunk) < tagSize {
		return fmt.Errorf("%w (chunk %d is cut short)", ErrAuth, sr.counter)
	}
	sr.nonce = nonce(sr.nonce, sr.h.Prefix, sr.counter, last)
	plain, err := sr.aead.Open(sr.plain[:0], sr.nonce, chunk, sr.h.raw)
	if err != nil {
		return fmt.Errorf("%w (chunk %d)", ErrAuth, sr.counter)
	}
	if !last && len(plain) != int(sr.h.Params.Chunk) {
		return fmt.Errorf("%w (chunk %d)", ErrAuth, sr.counter)
	}
	sr.plain, sr.pos = plain, 0
	if last {
		sr.done = true
		return nil
	}
	// Keep the look-ahead byte for the next chunk.
	sr.in = append(sr.in[:0], sr.in[size])
	sr.counter++
	return nil
}
