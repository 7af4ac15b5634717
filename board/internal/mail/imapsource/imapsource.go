// Package imapsource reads one IMAP mailbox over TLS as a mail source.
//
// A message's Ref is "<uidvalidity>:<uid>". The watermark is the mailbox's
// UIDVALIDITY and the last UID taken; when the server reports a different
// UIDVALIDITY the UIDs mean other messages, so reading restarts from the first.
// The mailbox is opened read-only and messages are fetched with BODY.PEEK, so
// reading marks nothing as seen.
package imapsource

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/opsboard/opsboard/board/internal/mail"
)

// batch is how many messages one UID FETCH asks for; batchBytes bounds
// what one fetch holds in memory (a big mail counts up to the raw limit),
// so fifty huge mails in a row are not held at once.
const (
	batch      = 50
	batchBytes = 32 << 20
)

// Options say where the mailbox is and how to log in.
type Options struct {
	Host     string
	Port     int // 993 when 0
	User     string
	Password string // from the caller's secret store, never from a config file
	Mailbox  string // "INBOX" when empty
	// TLS is the client TLS configuration; nil trusts the system roots. Tests
	// pass one whose RootCAs hold their own certificate.
	TLS *tls.Config
	// Timeout bounds the dial and the TLS handshake; one minute when 0. After
	// that the IMAP client gives each response 30 seconds, and cancelling the
	// context ends any wait at once.
	Timeout time.Duration
}

// Source is one IMAP mailbox.
type Source struct {
	opt Options
}

// New returns the mailbox opt describes; nothing is dialled until Read or Get.
func New(opt Options) *Source {
	if opt.Port == 0 {
		opt.Port = 993
	}
	if opt.Mailbox == "" {
		opt.Mailbox = "INBOX"
	}
	if opt.Timeout <= 0 {
		opt.Timeout = time.Minute
	}
	return &Source{opt: opt}
}

var _ mail.Source = (*Source)(nil)

// Watermark is the position reached in a mailbox.
type Watermark struct {
	UIDValidity uint32 `json:"uidValidity"`
	UID         uint32 `json:"uid"`
}

func (w Watermark) String() string {
	b, _ := json.Marshal(w) // two numbers always marshal
	return string(b)
}

func decodeWatermark(s string) (Watermark, error) {
	var w Watermark
	if strings.TrimSpace(s) == "" {
		return w, nil
	}
	if err := json.Unmarshal([]byte(s), &w); err != nil {
		return w, fmt.Errorf("%w: %q", mail.ErrBadWatermark, s)
	}
	return w, nil
}

// session is one logged-in connection with the mailbox selected read-only.
type session struct {
	c    *imapclient.Client
	sel  *imap.SelectData
	stop func() bool
}

func (s *Source) open(ctx context.Context) (*session, error) { return s.openWith(ctx, nil) }

// openWith is open with the client's options (IDLE passes a handler for the
// server's unsolicited mailbox updates).
func (s *Source) openWith(ctx context.Context, copt *imapclient.Options) (*session, error) {
	addr := net.JoinHostPort(s.opt.Host, strconv.Itoa(s.opt.Port))
	d := net.Dialer{Timeout: s.opt.Timeout}
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("imap dial %s: %w", addr, err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.opt.TLS != nil {
		cfg = s.opt.TLS.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = s.opt.Host
	}
	conn := tls.Client(raw, cfg)
	_ = conn.SetDeadline(time.Now().Add(s.opt.Timeout))
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, fmt.Errorf("imap tls %s: %w", addr, err)
	}
	_ = conn.SetDeadline(time.Time{}) // from here the client sets its own per response
	c := imapclient.New(conn, copt)
	// A cancelled context closes the connection, which ends any command waiting.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	sess := &session{c: c, stop: stop}
	if err := c.Login(s.opt.User, s.opt.Password).Wait(); err != nil {
		sess.close()
		return nil, fmt.Errorf("imap login %s@%s: %w", s.opt.User, addr, ctxErr(ctx, err))
	}
	sel, err := c.Select(s.opt.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		sess.close()
		return nil, fmt.Errorf("imap examine %s: %w", s.opt.Mailbox, ctxErr(ctx, err))
	}
	sess.sel = sel
	return sess, nil
}

func (s *session) close() {
	s.stop()
	_ = s.c.Logout().Wait() // best effort; the connection closes either way
	s.c.Close()
}

// ctxErr prefers the context's error: a closed connection is what cancelling looks like.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

var whole = &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Size: mail.MaxRaw}}

// Read calls fn for each message with a UID above the watermark's, in UID order.
func (s *Source) Read(ctx context.Context, after string, fn func(mail.Mail, string) error) error {
	w, err := decodeWatermark(after)
	if err != nil {
		return fmt.Errorf("imap %s: %w", s.opt.Mailbox, err)
	}
	sess, err := s.open(ctx)
	if err != nil {
		return err
	}
	defer sess.close()
	validity := sess.sel.UIDValidity
	last := w.UID
	if w.UIDValidity != validity {
		last = 0
	}
	if sess.sel.NumMessages == 0 {
		return nil
	}
	var set imap.UIDSet
	set.AddRange(imap.UID(last+1), 0) // last+1:*
	found, err := sess.c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return fmt.Errorf("imap list uids: %w", ctxErr(ctx, err))
	}
	// "n:*" always includes the highest message, even below n.
	found = slices.DeleteFunc(found, func(m *imapclient.FetchMessageBuffer) bool { return uint32(m.UID) <= last })
	slices.SortFunc(found, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	for _, chunk := range chunks(found) {
		msgs, err := sess.c.Fetch(imap.UIDSetNum(chunk...), &imap.FetchOptions{
			UID:         true,
			RFC822Size:  true,
			BodySection: []*imap.FetchItemBodySection{whole},
		}).Collect()
		if err != nil {
			return fmt.Errorf("imap fetch: %w", ctxErr(ctx, err))
		}
		slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		for _, b := range msgs {
			if err := ctx.Err(); err != nil {
				return err
			}
			m, _ := mail.ParseSized(b.FindBodySection(whole), b.RFC822Size) // a broken mail is still delivered
			m.Ref = fmt.Sprintf("%d:%d", validity, b.UID)
			if err := fn(m, Watermark{UIDValidity: validity, UID: uint32(b.UID)}.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// chunks splits the listed messages into fetches of at most batch
// messages and batchBytes (each counted up to the raw limit; one mail
// alone may fill a fetch).
func chunks(list []*imapclient.FetchMessageBuffer) [][]imap.UID {
	var out [][]imap.UID
	var cur []imap.UID
	var size int64
	for _, m := range list {
		n := min(m.RFC822Size, mail.MaxRaw)
		if len(cur) > 0 && (len(cur) == batch || size+n > batchBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, m.UID)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// Get returns the message with Ref "<uidvalidity>:<uid>"; ErrNotFound when
// the UID is gone or the mailbox's UIDVALIDITY has changed since.
func (s *Source) Get(ctx context.Context, ref string) (mail.Mail, error) {
	v, u, ok := strings.Cut(ref, ":")
	validity, err1 := strconv.ParseUint(v, 10, 32)
	uid, err2 := strconv.ParseUint(u, 10, 32)
	if !ok || err1 != nil || err2 != nil || uid == 0 {
		return mail.Mail{}, fmt.Errorf("imap ref %q: %w", ref, mail.ErrNotFound)
	}
	sess, err := s.open(ctx)
	if err != nil {
		return mail.Mail{}, err
	}
	defer sess.close()
	if sess.sel.UIDValidity != uint32(validity) {
		return mail.Mail{}, fmt.Errorf("imap %s: uidvalidity is now %d, not %d: %w", s.opt.Mailbox, sess.sel.UIDValidity, validity, mail.ErrNotFound)
	}
	msgs, err := sess.c.Fetch(imap.UIDSetNum(imap.UID(uid)), &imap.FetchOptions{
		UID:         true,
		RFC822Size:  true,
		BodySection: []*imap.FetchItemBodySection{whole},
	}).Collect()
	if err != nil {
		return mail.Mail{}, fmt.Errorf("imap fetch %s: %w", ref, ctxErr(ctx, err))
	}
	for _, b := range msgs {
		if uint64(b.UID) == uid {
			m, _ := mail.ParseSized(b.FindBodySection(whole), b.RFC822Size)
			m.Ref = ref
			return m, nil
		}
	}
	return mail.Mail{}, fmt.Errorf("imap %s: %w", ref, mail.ErrNotFound)
}
