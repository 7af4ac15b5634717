package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/sidecar-search/internal/safetensors"
)

func file(header string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(header)))
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

func read(raw []byte) (*safetensors.File, error) {
	return safetensors.Read(bytes.NewReader(raw), int64(len(raw)))
}

func TestReadDecodesEachDType(t *testing.T) {
	var data []byte
	data = binary.LittleEndian.AppendUint32(data, math.Float32bits(1.5))
	data = binary.LittleEndian.AppendUint32(data, math.Float32bits(-2))
	data = binary.LittleEndian.AppendUint16(data, 0x3C00) // F16 1
	data = binary.LittleEndian.AppendUint16(data, 0x3F80) // BF16 1
	data = binary.LittleEndian.AppendUint64(data, uint64(math.Float64bits(0.25)))
	data = binary.LittleEndian.AppendUint64(data, uint64(1<<40))
	data = binary.LittleEndian.AppendUint32(data, uint32(0xFFFFFFFF)) // I32 -1
	data = append(data, 0xFE, 200)                                    // I8 -2, U8 200
	hdr := `{"__metadata__":{"format":"pt"},
"a":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]},
"h":{"dtype":"F16","shape":[1],"data_offsets":[8,10]},
"b":{"dtype":"BF16","shape":[1],"data_offsets":[10,12]},
"d":{"dtype":"F64","shape":[1],"data_offsets":[12,20]},
"l":{"dtype":"I64","shape":[1],"data_offsets":[20,28]},
"i":{"dtype":"I32","shape":[1],"data_offsets":[28,32]},
"s":{"dtype":"I8","shape":[1],"data_offsets":[32,33]},
"u":{"dtype":"U8","shape":[1],"data_offsets":[33,34]}}`
	f, err := read(file(hdr, data))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]float32{}
	for name, tn := range f.Tensors {
		v, err := tn.Float32s()
		if err != nil {
			t.Fatal(name, err)
		}
		got[name] = v
	}
	want := map[string][]float32{"a": {1.5, -2}, "h": {1}, "b": {1}, "d": {0.25}, "l": {1 << 40}, "i": {-1}, "s": {-2}, "u": {200}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2}, f.Tensors["a"].Shape); diff != "" {
		t.Errorf("shape (-want +got)\n%s", diff)
	}
	if f.Metadata["format"] != "pt" {
		t.Errorf("metadata %v", f.Metadata)
	}
	if _, err := f.Tensors["a"].Int64s(); err == nil {
		t.Error("a float tensor read as integers")
	}
}

func TestReadRefusesBrokenFiles(t *testing.T) {
	data := make([]byte, 8)
	for name, raw := range map[string][]byte{
		"empty":             {},
		"length past end":   file(`{}`, nil)[:9],
		"header not json":   file(`{"a":`, data),
		"offsets past data": file(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, data),
		"size mismatch":     file(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, data),
		"unknown dtype":     file(`{"a":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}}`, data),
		"negative shape":    file(`{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, data),
	} {
		if _, err := read(raw); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}
