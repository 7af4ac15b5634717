// Package index is the search sidecar's in-memory vector index: the
// documents of a store state with their text hashes, their content digest,
// and cosine top-k search with the board's filters.
package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

// Doc is one indexed document: one per case, task, message and reminder,
// and one per vault page, with the fields and text the board ranks by too.
type Doc = searchdoc.Doc

// Filter is the board's search filters.
type Filter = searchdoc.Filter

// TaskDocID is a task's document id: <caseId>::<taskId>.
func TaskDocID(caseID, taskID string) string { return searchdoc.TaskID(caseID, taskID) }

// Docs derives the documents of a store state (see searchdoc.All) and
// hashes each text, so Update re-embeds only the documents whose text
// changed.
func Docs(d *wire.Doc) []Doc {
	docs := searchdoc.All(d)
	for i := range docs {
		docs[i].Hash = TextHash(docs[i].Text)
	}
	return docs
}

// TextHash is the document hash: the first 8 bytes of SHA-256 of the text.
func TextHash(text string) uint64 {
	sum := sha256.Sum256([]byte(text))
	return binary.BigEndian.Uint64(sum[:8])
}

// Digest is SHA-256 over the sorted lines "<id>:<doc hash>\n": the same
// documents give the same digest, in any order.
func Digest(docs []Doc) string {
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return docs[order[a]].ID < docs[order[b]].ID })
	h := sha256.New()
	var line []byte
	for _, i := range order {
		line = fmt.Appendf(line[:0], "%s:%016x\n", docs[i].ID, docs[i].Hash)
		h.Write(line)
	}
	return hex.EncodeToString(h.Sum(nil))
}
