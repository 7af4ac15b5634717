package seal_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/opsboard/opsboard/board/internal/backup/seal"
)

// small keeps scrypt cheap and chunks tiny, so tests cross many chunk edges.
var small = seal.Params{LogN: 4, R: 8, P: 1, Chunk: 64}

func sealed(t *testing.T, plain []byte, pass string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := seal.NewWriter(&buf, pass, small, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Odd write sizes, so chunks are filled across calls.
	for p := plain; len(p) > 0; {
		n := min(len(p), 37)
		if _, err := w.Write(p[:n]); err != nil {
			t.Fatal(err)
		}
		p = p[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func open(data []byte, pass string) ([]byte, error) {
	r, err := seal.NewReader(bytes.NewReader(data), pass)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func payload(n int) []byte {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 128, 1000} {
		plain := payload(n)
		got, err := open(sealed(t, plain, "correct horse"), "correct horse")
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, plain) {
			t.Fatalf("%d bytes: round trip differs", n)
		}
	}
}

func TestEveryFlippedByteIsRefused(t *testing.T) {
	data := sealed(t, payload(200), "pw")
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x01
		_, err := open(bad, "pw")
		switch {
		case i < len(seal.Magic):
			if !errors.Is(err, seal.ErrMagic) {
				t.Fatalf("byte %d: %v, want bad magic", i, err)
			}
		case i < seal.HeaderSize:
			if !errors.Is(err, seal.ErrWrongKey) && !errors.Is(err, seal.ErrHeader) {
				t.Fatalf("byte %d: %v, want a header refusal", i, err)
			}
		default:
			if !errors.Is(err, seal.ErrAuth) {
				t.Fatalf("byte %d: %v, want a tag failure", i, err)
			}
		}
	}
}

func TestTruncatedReorderedOrExtendedIsRefused(t *testing.T) {
	data := sealed(t, payload(64*3+10), "pw")
	size := 64 + 16
	body := data[seal.HeaderSize:]
	chunk := func(i int) []byte { return body[i*size : min(len(body), (i+1)*size)] }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	head := data[:seal.HeaderSize]
	for name, bad := range map[string][]byte{
		"cut at a chunk edge":    cat(head, chunk(0), chunk(1)),
		"cut inside a chunk":     data[:len(data)-5],
		"cut to the header":      head,
		"chunks swapped":         cat(head, chunk(1), chunk(0), chunk(2), chunk(3)),
		"a chunk dropped":        cat(head, chunk(0), chunk(2), chunk(3)),
		"a chunk repeated":       cat(head, chunk(0), chunk(0), chunk(1), chunk(2), chunk(3)),
		"bytes appended":         cat(data, []byte("x")),
		"a whole chunk appended": cat(data, chunk(0)),
	} {
		if _, err := open(bad, "pw"); !errors.Is(err, seal.ErrAuth) {
			t.Errorf("%s: %v, want a tag failure", name, err)
		}
	}
	if _, err := open(data[:seal.HeaderSize-3], "pw"); !errors.Is(err, seal.ErrHeader) {
		t.Errorf("cut inside the header: %v", err)
	}
}

func TestWrongPassphraseIsNamed(t *testing.T) {
	if _, err := open(sealed(t, payload(10), "right"), "wrong"); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("got %v", err)
	}
}

func TestNotSealedIsBadMagic(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("{}"), []byte("PK\x03\x04 zip file here..........................................")} {
		if _, err := open(data, "pw"); !errors.Is(err, seal.ErrMagic) {
			t.Errorf("%q: %v", data, err)
		}
	}
}

func TestEachRunHasItsOwnSaltAndNonces(t *testing.T) {
	a, b := sealed(t, payload(100), "pw"), sealed(t, payload(100), "pw")
	if bytes.Equal(a[:seal.HeaderSize], b[:seal.HeaderSize]) || bytes.Equal(a[seal.HeaderSize:], b[seal.HeaderSize:]) {
		t.Fatal("two files of the same plaintext share a header or ciphertext")
	}
}

// A header whose scrypt cost is far beyond what a writer uses is damage (or
// malice): it is refused before any key is derived, rather than make the
// reader allocate without bound (N=2^24, r=255 asks for 512 GiB).
func TestExcessiveScryptCostIsRefused(t *testing.T) {
	data := sealed(t, payload(10), "pw")
	i := len(seal.Magic) + 1
	data[i], data[i+1], data[i+2] = 24, 255, 255
	if _, err := open(data, "pw"); !errors.Is(err, seal.ErrHeader) {
		t.Fatalf("%v, want a header refusal", err)
	}
	if _, err := seal.NewWriter(io.Discard, "pw", seal.Params{LogN: 24, R: 255, P: 255}, nil); err == nil {
		t.Fatal("a writer took a cost no reader accepts")
	}
}
