package ingest

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
)

// maxAttachmentList bounds the list of attachments added to a body: a
// thousand parts with long names would not fit the board's create.
const maxAttachmentList = 16 << 10

// maxCreate is the most a message's create body may take, leaving room
// for what wraps it (links, the batch around it).
const maxCreate = wire.MaxRequestBody - 16<<10

// fitCreate cuts the body further when the encoded create would pass the
// board's request limit, so a parsed mail is never refused for its size.
// The parser keeps the body within its limit; escaping (control bytes,
// invalid UTF-8) can still make its JSON several times larger.
func fitCreate(in *wire.MessageInput) {
	for in.Body != "" {
		data, err := json.Marshal(wire.MessageCreate{MessageInput: *in})
		if err != nil || len(data) <= maxCreate {
			return
		}
		before := int64(len(in.Body))
		// Keep the body's share of what fits, and drop at least a sixth of
		// the excess (a body byte takes at most six bytes of JSON), so
		// each round comes closer.
		excess := len(data) - maxCreate
		keep := min(int(int64(len(in.Body))*maxCreate/int64(len(data))), len(in.Body)-(excess+5)/6)
		in.Body = capText(in.Body, max(0, keep))
		noteCut(in, "body", before)
	}
}

// noteCut adds name to what was cut, keeping the first size noted (the
// mail's own, before any cut).
func noteCut(in *wire.MessageInput, name string, size int64) {
	for _, n := range in.Truncated {
		if n == name {
			return
		}
	}
	in.Truncated = append(in.Truncated, name)
	if in.OriginalSizes == nil {
		in.OriginalSizes = map[string]int64{}
	}
	in.OriginalSizes[name] = size
}

// capText cuts s to at most n bytes on a character boundary.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
