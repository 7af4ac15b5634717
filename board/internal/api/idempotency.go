package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// idempotencyHeader names the key a client sends with a create so that a
// retry of the same request is one record.
const idempotencyHeader = "Idempotency-Key"

// keyLocks holds one lock per key in flight, so a double submit waits for
// the first request's answer instead of racing it to a second record.
type keyLocks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	sync.Mutex
	users int
}

func (k *keyLocks) lock(id string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyLock{}
	}
	l := k.locks[id]
	if l == nil {
		l = &keyLock{}
		k.locks[id] = l
	}
	l.users++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.locks, id)
		}
		k.mu.Unlock()
	}
}

// keyed wraps a create route: with an Idempotency-Key, a repeat of the
// key (same method and path) within the window answers the first answer
// and writes nothing, and the key with another body is a 409. Without the
// header the route runs as it is.
//
// The first answer is stored by a write of its own right after the
// create's (the create's handler builds the answer only once its write is
// done). A crash between the two leaves the record without its key, so a
// retry then creates once more; a running board never does.
func (a *API) keyed(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, sent := r.Header[idempotencyHeader]; !sent {
			next(w, r)
			return
		}
		key := r.Header.Get(idempotencyHeader)
		if err := checkKey(key); err != nil {
			a.fail(w, err)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			a.fail(w, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		id, sum := keyID(r.Method, r.URL.Path, key), bodySum(body)
		defer a.keys.lock(id)()
		if rec := a.keyAnswer(id); rec != nil {
			replay(w, rec, sum, key)
			return
		}
		rw := &answerRecorder{ResponseWriter: w, status: http.StatusOK}
		next(rw, r)
		if rw.status < 200 || rw.status > 299 {
			return // a refused create wrote nothing, so its retry may succeed
		}
		var answer bytes.Buffer
		if err := json.Compact(&answer, rw.body.Bytes()); err != nil {
			a.log.Error("api.idempotency", "key", key, "err", err) // every create answers JSON
			return
		}
		rec := wire.IdempotencyRecord{ID: id, Method: r.Method, Path: r.URL.Path, BodySum: sum, Status: rw.status, Answer: answer.Bytes()}
		if _, err := a.store.Update(r.Context(), wire.ActorSystem, nil, func(tx *store.Tx) error {
			RememberKeyTx(tx, rec)
			return nil
		}); err != nil {
			a.log.Error("api.idempotency", "key", key, "err", err)
		}
	}
}

// checkKey holds the header to 1..255 printable ASCII characters.
func checkKey(key string) error {
	bad := len(key) == 0 || len(key) > wire.MaxIdempotencyKeyLen
	for i := 0; i < len(key) && !bad; i++ {
		bad = key[i] < 0x20 || key[i] > 0x7e
	}
	if bad {
		return errs.BadRequest("header '%s' must be 1 to %d printable ASCII characters", idempotencyHeader, wire.MaxIdempotencyKeyLen)
	}
	return nil
}

// keyID scopes a key to its method and path.
func keyID(method, path, key string) string {
	h := sha256.Sum256([]byte(method + " " + path + "\n" + key))
	return "IDEM-" + hex.EncodeToString(h[:16])
}

// bodySum is a digest of body as canonical JSON (keys sorted, no
// insignificant space), so the same fields in another order or layout are
// the same request; a body that is not JSON is compared byte for byte.
func bodySum(body []byte) string {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// keyAnswer is the stored answer for id still within the window, or nil.
func (a *API) keyAnswer(id string) *wire.IdempotencyRecord {
	list := a.store.Snapshot().IdempotencyKeys
	for i := list.Len() - 1; i >= 0; i-- {
		if rec := list.At(i); rec.ID == id {
			if expired(rec, a.now()) {
				return nil
			}
			return rec
		}
	}
	return nil
}

func expired(rec *wire.IdempotencyRecord, now time.Time) bool {
	at, err := time.Parse(time.RFC3339Nano, rec.At)
	return err != nil || now.Sub(at) >= wire.IdempotencyWindow
}

// replay answers a repeated key: the first answer for the same body, a
// 409 naming the key for another.
func replay(w http.ResponseWriter, rec *wire.IdempotencyRecord, sum, key string) {
	if rec.BodySum != sum {
		httpjson.Reply(w, http.StatusConflict, wire.ErrorReply{
			Error:          "header '" + idempotencyHeader + "' was used with another body; send a new key for a new request",
			IdempotencyKey: key,
		})
		return
	}
	// The document may store the answer re-indented; the answer goes out
	// compact, with the newline every answer of the board ends in.
	var answer bytes.Buffer
	if err := json.Compact(&answer, rec.Answer); err != nil {
		answer.Reset()
		answer.Write(rec.Answer)
	}
	answer.WriteByte('\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Idempotent-Replayed", "true")
	w.Header().Set("Content-Length", strconv.Itoa(answer.Len()))
	w.WriteHeader(rec.Status)
	_, _ = w.Write(answer.Bytes())
}

// RememberKeyTx stores rec, stamped with the write's time, replacing an
// expired record of the same key, and drops expired records and the
// oldest beyond the cap. Records stay oldest first, so the drop looks only
// at the front.
func RememberKeyTx(tx *store.Tx, rec wire.IdempotencyRecord) {
	keys := tx.IdempotencyKeys()
	keys.Delete(rec.ID)
	rec.At = tx.Stamp()
	keys.Put(&rec)
	list := tx.Doc().IdempotencyKeys
	var drop []string
	for i, old := range list.All() {
		if list.Len()-i <= wire.MaxIdempotencyKeys && !expired(old, tx.Now()) {
			break
		}
		drop = append(drop, old.ID)
	}
	if len(drop) > 0 {
		keys.DeleteMany(drop)
	}
}

// answerRecorder passes an answer through and keeps a copy of it.
type answerRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *answerRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *answerRecorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}
