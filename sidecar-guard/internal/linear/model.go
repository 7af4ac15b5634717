package linear

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
)

// Model is a trained logistic regression over hashed n-grams.
type Model struct {
	Bits uint    // log2 of the number of buckets
	Bias float32 // the intercept
	// Shift is the margin of the chosen operating point. Probability maps
	// it to 0.5, so the sidecar's threshold means for the model what it
	// means for the rules.
	Shift float32
	W     []float32 // one weight per bucket
}

// Margin is the model's raw log-odds for text.
func (m *Model) Margin(text string) float64 {
	var sum float64
	n := Features(text, m.Bits, func(h uint32) { sum += float64(m.W[h]) })
	return float64(m.Bias) + Scale(n)*sum
}

// Probability is the calibrated score in 0..1: 0.5 at the operating point,
// higher means more like an injection. A text longer than Window runes
// scores its highest window, so a few injected lines are not drowned by
// the mail around them.
func (m *Model) Probability(text string) float64 {
	return sigmoid(m.peak(text) - float64(m.Shift))
}

// Scoring windows, in runes: about a sentence or two, Stride apart.
const (
	Window = 120
	Stride = 40
)

// peak is the highest margin of the whole text and of its windows. Prefix
// sums of the weights and counts by position make every window O(1), so
// the cost stays one pass over the features.
func (m *Model) peak(text string) float64 {
	p := peakBufs.Get().(*peakBuf)
	defer peakBufs.Put(p)
	t := normalizeInto(p.runes[:0], text)
	p.runes = t
	sum, cnt := p.sized(len(t) + 3)
	mask := uint32(1)<<m.Bits - 1
	words(t, func(pos int, h uint32) {
		sum[pos+1] += float64(m.W[h&mask])
		cnt[pos+1]++
	})
	m.addChars(t, sum, cnt)
	for i := 1; i < len(sum); i++ {
		sum[i] += sum[i-1]
		cnt[i] += cnt[i-1]
	}
	at := func(s, e int) float64 {
		return float64(m.Bias) + Scale(int(cnt[e]-cnt[s]))*(sum[e]-sum[s])
	}
	best, end := at(0, len(sum)-1), len(sum)-1
	if len(t) <= Window {
		return best
	}
	for s := 0; s < end; s += Stride {
		best = max(best, at(s, min(s+Window, end)))
		if s+Window >= end {
			break
		}
	}
	return best
}

// addChars is chars with the weights added in place: the same n-grams in
// the same order, so the sums are the same to the bit, without two calls
// through function values per n-gram on the model's hottest loop.
func (m *Model) addChars(t []rune, sum []float64, cnt []int32) {
	mask := uint32(1)<<m.Bits - 1
	w := m.W
	start := hashRune(fnvOffset, 'c')
	n := len(t) + 2
	for i := range n {
		h := start
		for k := 0; k < maxChar && i+k < n; k++ {
			r := ' '
			if j := i + k; j > 0 && j <= len(t) {
				r = t[j-1]
			}
			h = hashRune(h, r)
			if k+1 >= minChar {
				sum[i+1] += float64(w[h&mask])
				cnt[i+1]++
			}
		}
	}
}

// peakBuf holds one scoring's scratch space, reused across calls: a
// segment needs about 64 KB of it, which otherwise is garbage per call.
type peakBuf struct {
	runes []rune
	sum   []float64
	cnt   []int32
}

var peakBufs = sync.Pool{New: func() any { return new(peakBuf) }}

// sized returns the sums and counts, n long and zeroed.
func (p *peakBuf) sized(n int) ([]float64, []int32) {
	if cap(p.sum) < n {
		p.sum, p.cnt = make([]float64, n), make([]int32, n)
	}
	p.sum, p.cnt = p.sum[:n], p.cnt[:n]
	clear(p.sum)
	clear(p.cnt)
	return p.sum, p.cnt
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// The weights file: magic, version, bits, bias, shift, then 1<<bits
// float32 weights, all little-endian. Float32 keeps the file at 1 MB for
// 2^18 buckets with no measurable loss against float64.
const (
	fileMagic   = "GLIN"
	fileVersion = 1
)

// MarshalBinary writes the weights file; the same model gives the same
// bytes.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(fileMagic)
	for _, v := range []any{uint32(fileVersion), uint32(m.Bits), m.Bias, m.Shift, m.W} {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads a weights file written by MarshalBinary.
func (m *Model) UnmarshalBinary(data []byte) error {
	if len(data) < 20 || string(data[:4]) != fileMagic {
		return fmt.Errorf("not a weights file (magic %q)", data[:min(4, len(data))])
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[4:]); v != fileVersion {
		return fmt.Errorf("weights file version %d, want %d", v, fileVersion)
	}
	bits := le.Uint32(data[8:])
	if bits < 10 || bits > 24 {
		return fmt.Errorf("weights file has %d bits, want 10 to 24", bits)
	}
	if want := 20 + 4<<bits; len(data) != want {
		return fmt.Errorf("weights file is %d bytes, want %d", len(data), want)
	}
	m.Bits = uint(bits)
	m.Bias = math.Float32frombits(le.Uint32(data[12:]))
	m.Shift = math.Float32frombits(le.Uint32(data[16:]))
	m.W = make([]float32, 1<<bits)
	for i := range m.W {
		m.W[i] = math.Float32frombits(le.Uint32(data[20+4*i:]))
	}
	return nil
}

//go:embed model.bin
var embedded []byte

// Embedded is the committed model (model.json beside it says how it was
// made). It is parsed once.
var Embedded = sync.OnceValues(func() (*Model, error) {
	m := new(Model)
	if err := m.UnmarshalBinary(embedded); err != nil {
		return nil, fmt.Errorf("embedded model: %w", err)
	}
	return m, nil
})
