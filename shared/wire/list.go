package wire

import (
	"bytes"
	"encoding/json"
	"iter"
	"reflect"
)

// List is an immutable list of records kept in chunks of listChunk, every
// chunk full but the last, behind a small index of chunk pointers.
//
// The board's state is a document that readers keep as a snapshot while a
// write builds the next one. With the records in one slice, a write had to
// copy the whole slice before it replaced or removed one record (800 KB of
// pointers for 100,000 messages), and that copying and the collector's work
// on it were most of what a write cost on a large board. A List shares
// every chunk between the old state and the new: replacing a record copies
// its chunk and the index, a few KB at any size, and a reader of the old
// List never sees the change.
//
// Appending writes past the list's length in place, as append does on a
// slice: a reader of the old List never looks past its own length, but two
// appends to the same List overwrite each other, so keep only the result.
//
// The zero List is empty and encodes as JSON null, like a nil slice;
// ListOf of an empty, non-nil slice encodes as [].
type List[T any] struct {
	chunks []*[listChunk]T
	n      int
}

const (
	listShift = 8
	listChunk = 1 << listShift // records per chunk
	listMask  = listChunk - 1
)

// ListOf is a list of recs, in order. ListOf() is the zero (null) list.
func ListOf[T any](recs ...T) List[T] {
	var l List[T]
	if recs != nil {
		l.chunks = make([]*[listChunk]T, 0, (len(recs)+listMask)>>listShift)
	}
	for i := 0; i < len(recs); i += listChunk {
		c := new([listChunk]T)
		copy(c[:], recs[i:])
		l.chunks = append(l.chunks, c)
	}
	l.n = len(recs)
	return l
}

// Len is the number of records.
func (l List[T]) Len() int { return l.n }

// IsNil reports whether l is the zero list (encoded as null), as a nil
// slice is.
func (l List[T]) IsNil() bool { return l.chunks == nil }

// IsZero reports whether l is empty, so that a field tagged omitzero is
// left out as omitempty leaves out an empty slice.
func (l List[T]) IsZero() bool { return l.n == 0 }

// At is the record at i; it panics when i is out of range.
func (l List[T]) At(i int) T {
	if uint(i) >= uint(l.n) {
		panic("wire.List: index out of range")
	}
	return l.chunks[i>>listShift][i&listMask]
}

// All yields each position and record in order.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for c, chunk := range l.chunks {
			base := c << listShift
			for j := range min(listChunk, l.n-base) {
				if !yield(base+j, chunk[j]) {
					return
				}
			}
		}
	}
}

// Equal reports whether l and o hold deeply equal records in the same
// order, and are both null or both not, as reflect.DeepEqual compares two
// slices. go-cmp compares lists through it.
func (l List[T]) Equal(o List[T]) bool {
	if l.IsNil() != o.IsNil() || l.n != o.n {
		return false
	}
	for i, r := range l.All() {
		if !reflect.DeepEqual(r, o.At(i)) {
			return false
		}
	}
	return true
}

// IndexFunc is the position of the first record f accepts, or -1.
func (l List[T]) IndexFunc(f func(T) bool) int {
	for i, r := range l.All() {
		if f(r) {
			return i
		}
	}
	return -1
}

// Slice is a fresh copy of the records, nil for the zero list.
func (l List[T]) Slice() []T {
	if l.chunks == nil {
		return nil
	}
	out := make([]T, 0, l.n)
	for c, chunk := range l.chunks {
		out = append(out, chunk[:min(listChunk, l.n-c<<listShift)]...)
	}
	return out
}

// Set is l with the record at i replaced by v; l is unchanged. It copies
// the index and the one chunk holding i.
func (l List[T]) Set(i int, v T) List[T] {
	_ = l.At(i)
	chunks := append([]*[listChunk]T(nil), l.chunks...)
	c := i >> listShift
	chunks[c] = l.copyChunk(c)
	chunks[c][i&listMask] = v
	return List[T]{chunks: chunks, n: l.n}
}

// copyChunk is a fresh copy of chunk c's records.
func (l List[T]) copyChunk(c int) *[listChunk]T {
	cp := new([listChunk]T)
	copy(cp[:], l.chunks[c][:min(listChunk, l.n-c<<listShift)])
	return cp
}

// Append is l with recs added at the end, written in place past l's length.
func (l List[T]) Append(recs ...T) List[T] {
	if l.chunks == nil && recs != nil {
		l.chunks = []*[listChunk]T{}
	}
	for _, r := range recs {
		j := l.n & listMask
		if j == 0 {
			l.chunks = append(l.chunks[:l.n>>listShift], new([listChunk]T))
		}
		l.chunks[l.n>>listShift][j] = r
		l.n++
	}
	return l
}

// Delete is l without the record at i; l is unchanged. The chunks before
// i's are shared, the rest built anew.
func (l List[T]) Delete(i int) List[T] {
	_ = l.At(i)
	return l.rebuild(i>>listShift, l.n, func(k int, _ T) bool { return k != i })
}

// Filter is l with only the records keep accepts, in order; l is
// unchanged. The chunks before the first record dropped are shared. keep
// is called once per record, in order.
func (l List[T]) Filter(keep func(T) bool) List[T] {
	out, _ := l.filter(keep)
	return out
}

// filter is Filter, and the first chunk it rebuilt (-1 for none).
func (l List[T]) filter(keep func(T) bool) (List[T], int) {
	for i, r := range l.All() {
		if keep(r) {
			continue
		}
		from := i >> listShift
		out := l.rebuild(from, i, func(int, T) bool { return true })
		for k := i + 1; k < l.n; k++ {
			if r := l.At(k); keep(r) {
				out = out.Append(r)
			}
		}
		return out, from
	}
	return l, -1
}

// Insert is l with v at position i (i == Len appends); l is unchanged.
func (l List[T]) Insert(i int, v T) List[T] {
	if i == l.n {
		out := l.rebuild(l.n>>listShift, l.n, func(int, T) bool { return true })
		return out.Append(v)
	}
	_ = l.At(i)
	out := l.rebuild(i>>listShift, i, func(int, T) bool { return true })
	out = out.Append(v)
	for k := i; k < l.n; k++ {
		out = out.Append(l.At(k))
	}
	return out
}

// rebuild keeps the chunks before chunk from and rebuilds the rest from the
// records before end that keep accepts, so a reader of l sees none of it.
func (l List[T]) rebuild(from, end int, keep func(int, T) bool) List[T] {
	out := List[T]{chunks: append(make([]*[listChunk]T, 0, len(l.chunks)), l.chunks[:from]...), n: from << listShift}
	for k := from << listShift; k < end; k++ {
		if r := l.At(k); keep(k, r) {
			out = out.Append(r)
		}
	}
	return out
}

// MarshalJSON writes the records as one JSON array, as a slice encodes.
func (l List[T]) MarshalJSON() ([]byte, error) {
	if l.chunks == nil {
		return []byte("null"), nil
	}
	return json.Marshal(l.Slice())
}

// UnmarshalJSON reads a JSON array (null is the zero list).
func (l *List[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*l = List[T]{}
		return nil
	}
	var recs []T
	if err := json.Unmarshal(data, &recs); err != nil {
		return err
	}
	if recs == nil {
		recs = []T{}
	}
	*l = ListOf(recs...)
	return nil
}

// ListDraft changes a List in place for one writer that started from a
// committed List readers may still hold. It copies the index and each chunk
// it changes at most once: the chunks it made or copied are its own and
// change in place after that.
type ListDraft[T any] struct {
	l        *List[T]
	ownIndex bool
	owned    map[*[listChunk]T]bool
}

// DraftOf starts a draft of *l; its changes go to *l.
func DraftOf[T any](l *List[T]) ListDraft[T] {
	return ListDraft[T]{l: l}
}

// Set replaces the record at i.
func (d *ListDraft[T]) Set(i int, v T) {
	l := d.l
	_ = l.At(i)
	if !d.ownIndex {
		l.chunks = append(make([]*[listChunk]T, 0, len(l.chunks)+1), l.chunks...)
		d.ownIndex = true
	}
	c := i >> listShift
	if !d.owned[l.chunks[c]] {
		l.chunks[c] = l.copyChunk(c)
		d.own(l.chunks[c])
	}
	l.chunks[c][i&listMask] = v
}

func (d *ListDraft[T]) own(c *[listChunk]T) {
	if d.owned == nil {
		d.owned = map[*[listChunk]T]bool{}
	}
	d.owned[c] = true
}

// Append adds v at the end, past the length any reader sees.
func (d *ListDraft[T]) Append(v T) {
	fresh := d.l.n&listMask == 0
	*d.l = d.l.Append(v)
	if fresh {
		d.own(d.l.chunks[len(d.l.chunks)-1])
	}
}

// Delete removes the record at i.
func (d *ListDraft[T]) Delete(i int) {
	_ = d.l.At(i)
	d.rebuilt(i>>listShift, d.l.Delete(i))
}

// Filter keeps only the records keep accepts, in order; keep is called
// once per record, in order.
func (d *ListDraft[T]) Filter(keep func(T) bool) {
	if l, from := d.l.filter(keep); from >= 0 {
		d.rebuilt(from, l)
	}
}

// Insert puts v at position i (i == Len appends).
func (d *ListDraft[T]) Insert(i int, v T) {
	if i == d.l.n {
		d.Append(v)
		return
	}
	from := i >> listShift
	d.rebuilt(from, d.l.Insert(i, v))
}

// rebuilt takes l, whose chunks from from on are new, as the draft.
func (d *ListDraft[T]) rebuilt(from int, l List[T]) {
	*d.l = l
	d.ownIndex = true
	for _, c := range l.chunks[from:] {
		d.own(c)
	}
}
