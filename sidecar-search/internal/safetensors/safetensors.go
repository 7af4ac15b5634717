// Package safetensors reads tensors from a .safetensors file: an 8-byte
// little-endian header length, a JSON header naming each tensor's dtype,
// shape and byte range, then the raw little-endian data.
package safetensors

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
)

// maxHeader bounds the JSON header so a corrupt length cannot make us
// allocate gigabytes before failing.
const maxHeader = 100 << 20

// Tensor is one named tensor: its dtype name as the file spells it (F32,
// F16, BF16, F64, I64, I32, I16, I8, U8), its shape and its raw bytes.
type Tensor struct {
	Name  string
	DType string
	Shape []int
	Data  []byte
}

// File is the tensors of one file, by name, plus the free-form metadata.
type File struct {
	Tensors  map[string]*Tensor
	Metadata map[string]string
}

type headerEntry struct {
	DType       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// Open reads the whole file at path.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open safetensors: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	out, err := Read(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Read parses a safetensors stream of the given total size.
func Read(r io.Reader, size int64) (*File, error) {
	var lenBuf [8]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("read header length: %w", err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n == 0 || n > maxHeader || int64(n) > size-8 {
		return nil, fmt.Errorf("header length %d is not valid for a file of %d bytes", n, size)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("parse header: %w", err)
	}
	dataLen := size - 8 - int64(n)
	data := make([]byte, dataLen)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("read tensor data: %w", err)
	}
	out := &File{Tensors: map[string]*Tensor{}}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "__metadata__" {
			if err := json.Unmarshal(raw[name], &out.Metadata); err != nil {
				return nil, fmt.Errorf("parse metadata: %w", err)
			}
			continue
		}
		var e headerEntry
		if err := json.Unmarshal(raw[name], &e); err != nil {
			return nil, fmt.Errorf("parse header entry %q: %w", name, err)
		}
		width, ok := dtypeSize[e.DType]
		if !ok {
			return nil, fmt.Errorf("tensor %q: dtype %q is not supported", name, e.DType)
		}
		count := int64(1)
		for _, d := range e.Shape {
			if d < 0 {
				return nil, fmt.Errorf("tensor %q: negative dimension in shape %v", name, e.Shape)
			}
			count *= int64(d)
		}
		begin, end := e.DataOffsets[0], e.DataOffsets[1]
		if begin < 0 || end < begin || end > dataLen {
			return nil, fmt.Errorf("tensor %q: data offsets %v outside the %d data bytes", name, e.DataOffsets, dataLen)
		}
		if end-begin != count*int64(width) {
			return nil, fmt.Errorf("tensor %q: %d bytes for shape %v of %s, want %d", name, end-begin, e.Shape, e.DType, count*int64(width))
		}
		out.Tensors[name] = &Tensor{Name: name, DType: e.DType, Shape: e.Shape, Data: data[begin:end]}
	}
	return out, nil
}

var dtypeSize = map[string]int{
	"F64": 8, "F32": 4, "F16": 2, "BF16": 2,
	"I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1,
}

// Len is the number of elements.
func (t *Tensor) Len() int { return len(t.Data) / dtypeSize[t.DType] }

// Float32s decodes any numeric tensor to float32 values. Integer tensors
// convert by value, which is how a quantized embedding matrix is used.
func (t *Tensor) Float32s() ([]float32, error) {
	n := t.Len()
	out := make([]float32, n)
	d := t.Data
	switch t.DType {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(d[4*i:]))
		}
	case "F64":
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(d[8*i:])))
		}
	case "F16":
		for i := range out {
			out[i] = HalfToFloat32(binary.LittleEndian.Uint16(d[2*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(d[2*i:])) << 16)
		}
	case "I64", "I32", "I16", "I8", "U8":
		ints, err := t.Int64s()
		if err != nil {
			return nil, err
		}
		for i, v := range ints {
			out[i] = float32(v)
		}
	default:
		return nil, fmt.Errorf("tensor %q: dtype %s has no float reading", t.Name, t.DType)
	}
	return out, nil
}

// Int64s decodes an integer tensor.
func (t *Tensor) Int64s() ([]int64, error) {
	n := t.Len()
	out := make([]int64, n)
	d := t.Data
	switch t.DType {
	case "I64":
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(d[8*i:]))
		}
	case "I32":
		for i := range out {
			out[i] = int64(int32(binary.LittleEndian.Uint32(d[4*i:])))
		}
	case "I16":
		for i := range out {
			out[i] = int64(int16(binary.LittleEndian.Uint16(d[2*i:])))
		}
	case "I8":
		for i := range out {
			out[i] = int64(int8(d[i]))
		}
	case "U8":
		for i := range out {
			out[i] = int64(d[i])
		}
	default:
		return nil, fmt.Errorf("tensor %q: dtype %s is not an integer type", t.Name, t.DType)
	}
	return out, nil
}

// HalfToFloat32 converts an IEEE 754 binary16 value, subnormals, infinities
// and NaN included.
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value is mant * 2^-24
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
