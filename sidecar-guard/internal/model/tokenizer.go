package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/knights-analytics/hugot/backends"
)

// encoding is one tokenized text: parallel slices, one entry per token.
type encoding struct {
	ids, typeIDs, mask, special []uint32
}

// tokenizer wraps the build's tokenizer library behind the two calls the
// classifier needs. head and tail count the special tokens the tokenizer
// puts before and after a single sequence.
type tokenizer struct {
	encode     func(text string) (encoding, error)
	close      func()
	head, tail int
}

func (t tokenizer) specials() int { return t.head + t.tail }

// readTokenizerJSON returns dir/tokenizer.json with its truncation and
// padding settings removed: the classifier windows long texts itself, and a
// tokenizer that truncated would silently drop the end of an email.
func readTokenizerJSON(dir string) ([]byte, error) {
	path := filepath.Join(dir, "tokenizer.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("load tokenizer: parse %s: %w", path, err)
	}
	doc["truncation"] = json.RawMessage("null")
	doc["padding"] = json.RawMessage("null")
	return json.Marshal(doc)
}

// withEnds measures the special tokens added around one sequence by
// encoding the empty text, then returns t with head and tail set.
func (t tokenizer) withEnds() (tokenizer, error) {
	enc, err := t.encode("")
	if err != nil {
		return t, fmt.Errorf("load tokenizer: encode empty text: %w", err)
	}
	t.head, t.tail = enc.specialEnds(len(enc.ids), len(enc.ids))
	if n := len(enc.ids); t.head == n && n > 1 {
		// All special, as for "[CLS] [SEP]": split them around the text
		// by encoding a letter and counting what lands after it.
		one, err := t.encode("a")
		if err != nil {
			return t, fmt.Errorf("load tokenizer: encode a letter: %w", err)
		}
		_, tail := one.specialEnds(n, n)
		t.head, t.tail = n-tail, tail
	}
	return t, nil
}

// specialEnds counts the special tokens at the start and at the end of e,
// at most maxHead and maxTail of them, never overlapping.
func (e encoding) specialEnds(maxHead, maxTail int) (head, tail int) {
	n := len(e.ids)
	for head < n && head < maxHead && e.special[head] == 1 {
		head++
	}
	for tail < n-head && tail < maxTail && e.special[n-1-tail] == 1 {
		tail++
	}
	return head, tail
}

func (e encoding) slice(i, j int) encoding {
	return encoding{ids: e.ids[i:j], typeIDs: e.typeIDs[i:j], mask: e.mask[i:j], special: e.special[i:j]}
}

// concat returns a new encoding: e followed by o. It never writes into e.
func (e encoding) concat(o encoding) encoding {
	join := func(a, b []uint32) []uint32 {
		out := make([]uint32, 0, len(a)+len(b))
		return append(append(out, a...), b...)
	}
	return encoding{
		ids:     join(e.ids, o.ids),
		typeIDs: join(e.typeIDs, o.typeIDs),
		mask:    join(e.mask, o.mask),
		special: join(e.special, o.special),
	}
}

func (e encoding) input() backends.TokenizedInput {
	return backends.TokenizedInput{
		TokenIDs:          e.ids,
		TypeIDs:           e.typeIDs,
		AttentionMask:     e.mask,
		SpecialTokensMask: e.special,
		MaxAttentionIndex: len(e.ids) - 1,
	}
}

// fill makes every slice of e as long as ids: a tokenizer that leaves type
// ids or the attention mask out means zeros and ones respectively.
func (e encoding) fill() encoding {
	n := len(e.ids)
	pad := func(s []uint32, v uint32) []uint32 {
		if len(s) == n {
			return s
		}
		out := make([]uint32, n)
		copy(out, s)
		for i := len(s); i < n; i++ {
			out[i] = v
		}
		return out
	}
	e.typeIDs = pad(e.typeIDs, 0)
	e.mask = pad(e.mask, 1)
	e.special = pad(e.special, 0)
	return e
}
