package storefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/opsboard/opsboard/shared/wire"
)

// Start-up is nearly all decoding of the document, and encoding/json reads
// the input twice (a whole validation pass, then the decode) on one core. A
// large document is decoded here in one pass instead, its big collections
// split into their records and decoded on every core, with the options that
// keep encoding/json's meaning (field names matched without regard to case,
// the last of duplicate names winning, invalid UTF-8 replaced).

// splitFrom is the size from which a document is decoded in parallel; a
// smaller one is not worth the goroutines. Tests lower it.
var splitFrom = 4 << 20

var v1Options = jsonv1.DefaultOptionsV1()

// unmarshalDoc decodes data into d as json.Unmarshal would. Whatever the
// fast path cannot take (bad JSON, a name it does not expect) goes to
// json.Unmarshal, so errors read as they always have.
func unmarshalDoc(data []byte, d *wire.Doc) error {
	if len(data) >= splitFrom {
		var fast wire.Doc
		if decodeSplit(data, &fast) == nil {
			*d = fast
			return nil
		}
	}
	return json.Unmarshal(data, d)
}

// span is where one value lies in the input.
type span struct{ from, to int }

// docParts is a document cut into its two large collections, record by
// record, and the rest of its members as one object.
type docParts struct {
	rest     []byte
	cases    []span
	messages []span
}

// decodeSplit decodes the document's parts at the same time: the cases and
// messages in chunks of records over every core, the rest as one object.
func decodeSplit(data []byte, d *wire.Doc) error {
	parts, err := splitDoc(data)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	wg.Go(func() { errs[0] = jsonv2.Unmarshal(parts.rest, d, v1Options) })
	var cases []*wire.Case
	var messages []*wire.Message
	wg.Go(func() { cases, errs[1] = decodeEach[wire.Case](data, parts.cases) })
	wg.Go(func() { messages, errs[2] = decodeEach[wire.Message](data, parts.messages) })
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if parts.cases != nil {
		d.Cases = wire.ListOf(cases...)
	}
	if parts.messages != nil {
		d.Messages = wire.ListOf(messages...)
	}
	return nil
}

// splitDoc cuts the top-level object into parts. A name that only matches
// "cases" or "messages" when case is ignored, or a repeated one, is refused
// so that json.Unmarshal settles which value wins.
func splitDoc(data []byte) (docParts, error) {
	var p docParts
	dec := jsontext.NewDecoder(bytes.NewReader(data), v1Options)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return p, errNotSplit
	}
	rest := []byte{'{'}
	seen := map[string]bool{}
	for dec.PeekKind() != '}' {
		before := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return p, err
		}
		name := tok.String()
		folded := strings.ToLower(name)
		if (folded == "cases" || folded == "messages") && (seen[folded] || name != folded) {
			return p, errNotSplit
		}
		seen[folded] = true
		if (name == "cases" || name == "messages") && dec.PeekKind() == '[' {
			spans, err := splitArray(dec, data)
			if err != nil {
				return p, err
			}
			if name == "cases" {
				p.cases = spans
			} else {
				p.messages = spans
			}
			continue
		}
		if err := dec.SkipValue(); err != nil {
			return p, err
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		rest = append(rest, trimLead(data[before:dec.InputOffset()])...)
	}
	if _, err := dec.ReadToken(); err != nil {
		return p, err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return p, errNotSplit // more after the document
	}
	p.rest = append(rest, '}')
	return p, nil
}

// splitArray reads the array the decoder is at and returns where each of
// its elements lies in data.
func splitArray(dec *jsontext.Decoder, data []byte) ([]span, error) {
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	spans := []span{}
	for dec.PeekKind() != ']' {
		from := dec.InputOffset()
		if err := dec.SkipValue(); err != nil {
			return nil, err
		}
		to := int(dec.InputOffset())
		spans = append(spans, span{to - len(trimLead(data[from:to])), to})
	}
	_, err := dec.ReadToken()
	return spans, err
}

// trimLead drops the separators before a value or a member's name.
func trimLead(b []byte) []byte { return bytes.TrimLeft(b, " \t\r\n,") }

// decodeEach decodes the records at spans in chunks over every core.
func decodeEach[T any](data []byte, spans []span) ([]*T, error) {
	out := make([]*T, len(spans))
	workers := min(runtime.GOMAXPROCS(0), max(len(spans)/256, 1))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w * len(spans) / workers; i < (w+1)*len(spans)/workers; i++ {
				if err := jsonv2.Unmarshal(data[spans[i].from:spans[i].to], &out[i], v1Options); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

type notSplit struct{}

func (notSplit) Error() string { return "the document is not one this decoder splits" }

var errNotSplit error = notSplit{}
