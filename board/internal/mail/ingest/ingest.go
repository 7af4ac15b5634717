package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/dedupe"
	"github.com/opsboard/opsboard/shared/guardclient"
	"github.com/opsboard/opsboard/shared/wire"
)

// Report is what one run did, as `board ingest --json` prints it.
type Report struct {
	Fetched    int `json:"fetched"`
	New        int `json:"new"`
	Duplicates int `json:"duplicates"`
	// OlderSkipped counts mail dated before its source's since: read, left
	// out, not counted in Fetched.
	OlderSkipped int               `json:"olderSkipped"`
	Quarantined  int               `json:"quarantined"`
	Blocked      int               `json:"blocked"`
	Unscanned    int               `json:"unscanned"`
	Replayed     int               `json:"replayed,omitempty"`
	Routed       wire.IngestRouted `json:"routed"`
	Errors       []string          `json:"errors"`
	// GuardDown says the guard did not answer, so mail was admitted
	// unscanned as data.
	GuardDown bool `json:"guardDown,omitempty"`
	// SourceFailed says at least one source could not be read to its end.
	SourceFailed bool `json:"-"`
}

// Options are the inputs of a run.
type Options struct {
	Board  *Board
	Guard  *guardclient.Client // nil: no guard configured, mail goes in unscanned
	Config Config
	// StateDir holds the watermarks file (the directory of the board's data).
	StateDir string
	Only     string // read only the source with this name ("" = all)
	// Since (YYYY-MM-DD), when set, is every source's since on this run,
	// over the one in the config.
	Since string
	// Zone is the board's zone when its timezone preference names none;
	// nil is UTC. Now is the clock (nil: time.Now).
	Zone   *time.Location
	Now    func() time.Time
	DryRun bool // report what would happen, write nothing
	Getenv func(string) string
	Logger *slog.Logger
	// OpenSource overrides how a source is opened (tests use it to reach a
	// loopback IMAP server with their own certificate); nil uses Open.
	OpenSource func(SourceConfig) (mail.Source, error)
	// OnRead, when set, is told of every message a source hands over, left
	// out or not, so a command can show how far the run has got.
	OnRead func()
}

// saveEvery bounds how many durable messages a watermark may lag behind.
// A lagging watermark costs only a re-read the board's dedupe absorbs.
const saveEvery = 100

// Run reads every configured source once. It returns an error only when the
// board cannot be reached (or the watermarks file is unusable); a source that
// fails is reported in Report.Errors and the other sources still run.
func Run(ctx context.Context, o Options) (Report, error) {
	rep := Report{Errors: []string{}}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.OpenSource == nil {
		o.OpenSource = func(s SourceConfig) (mail.Source, error) { return Open(s, o.Getenv) }
	}
	var sources []SourceConfig
	for _, s := range o.Config.Sources {
		if o.Only == "" || s.Name == o.Only {
			sources = append(sources, s)
		}
	}
	if o.Only != "" && len(sources) == 0 {
		return rep, fmt.Errorf("no source named %q in %s", o.Only, ConfigName)
	}
	st, err := loadState(filepath.Join(o.StateDir, StateName))
	if err != nil {
		return rep, err
	}
	r, err := o.loadRouter(ctx)
	if err != nil {
		return rep, err
	}
	p := &pipeline{o: o, rep: &rep, router: r, blocked: map[string]bool{}, zone: o.Zone}
	if prefs, err := o.Board.Prefs(ctx); err == nil {
		p.zone = prefsZone(prefs, o.Zone)
	} else {
		p.zone = prefsZone(nil, o.Zone)
	}
	p.loadBlocked(ctx)

	if err := p.replay(ctx, sources); err != nil {
		return rep, err
	}
	for _, s := range sources {
		if err := p.readSource(ctx, s, st); err != nil {
			var un *UnreachableError
			if errors.As(err, &un) || ctx.Err() != nil {
				return rep, err
			}
			rep.SourceFailed = true
			rep.Errors = append(rep.Errors, err.Error())
			o.Logger.Warn("ingest.source", "source", s.Name, "err", err)
		}
	}
	if p.guardDown {
		rep.GuardDown = true
		rep.Errors = append(rep.Errors, fmt.Sprintf("the guard did not answer: %d messages were admitted unscanned, as data", rep.Unscanned))
	}
	if !o.DryRun {
		run := wire.IngestRun{Fetched: rep.Fetched, New: rep.New, Duplicates: rep.Duplicates, OlderSkipped: rep.OlderSkipped, Quarantined: rep.Quarantined,
			Blocked: rep.Blocked, Unscanned: rep.Unscanned, Replayed: rep.Replayed, Routed: rep.Routed, Errors: rep.Errors}
		for _, s := range sources {
			run.Sources = append(run.Sources, s.Name)
		}
		if err := o.Board.RecordRun(ctx, run); err != nil {
			return rep, fmt.Errorf("record the run: %w", err)
		}
	}
	return rep, nil
}

func (o Options) loadRouter(ctx context.Context) (*router, error) {
	msgs, err := o.Board.Messages(ctx)
	if err != nil {
		return nil, err
	}
	cases, err := o.Board.Cases(ctx)
	if err != nil {
		return nil, err
	}
	rems, err := o.Board.Reminders(ctx)
	if err != nil {
		return nil, err
	}
	r := newRouter(cases, rems, msgs)
	pages, err := o.Board.PersonPages(ctx)
	if err != nil {
		var un *UnreachableError
		if errors.As(err, &un) || ctx.Err() != nil {
			return nil, err
		}
		// A board without a vault, or one still scanning it, routes as
		// before: by thread and by the nodes a sender appears on.
		o.Logger.Warn("ingest.pages", "err", err)
		return r, nil
	}
	r.byPage = pageRoutes(pages, cases)
	return r, nil
}

type pipeline struct {
	mu        sync.Mutex // guards rep, router and guardDown between creates in flight
	o         Options
	rep       *Report
	router    *router
	blocked   map[string]bool
	guardDown bool
	zone      *time.Location // the board's, where a since's day starts
}

// loadBlocked reads the guard's blocked senders. A guard that does not
// answer blocks no one here; its scans fail open below, by policy.
func (p *pipeline) loadBlocked(ctx context.Context) {
	if p.o.Guard == nil {
		return
	}
	list, err := p.o.Guard.Trust(ctx)
	if err != nil { // the report says so once a scan fails too
		p.o.Logger.Warn("ingest.guard", "err", err)
		return
	}
	for _, t := range list.Senders {
		if t.Tier == wire.TierBlocked {
			p.blocked[strings.ToLower(t.Email)] = true
		}
	}
}

// inFlight is how many messages a source keeps between screen and durable
// at once: the board makes concurrent writes durable with one shared fsync
// and the guard scans in parallel, so a few in flight multiply the rate of
// a sequential run.
const inFlight = 8

// readSource reads one source from its watermark and keeps the watermark of
// the last message that is durable on the board, together with every
// message before it.
func (p *pipeline) readSource(ctx context.Context, s SourceConfig, st *state) error {
	from, err := cutoff(p.o.Since, s, st, p.o.Now(), p.zone)
	if err != nil {
		return err
	}
	if !p.o.DryRun {
		if err := st.save(); err != nil { // the since chosen, before any mail is read
			return err
		}
	}
	src, err := p.o.OpenSource(s)
	if err != nil {
		return err
	}
	f := &flight{st: st, name: s.Name, dry: p.o.DryRun, done: map[int]string{}, sem: make(chan struct{}, inFlight)}
	b := &batch{}
	err = src.Read(ctx, st.Sources[s.Name], func(m mail.Mail, watermark string) error {
		if err := f.failed(); err != nil {
			return err
		}
		if p.o.OnRead != nil {
			p.o.OnRead()
		}
		seq := f.start()
		p.mu.Lock()
		older := !m.Date.IsZero() && m.Date.Before(from) // undated mail is never left out
		if older {
			p.rep.OlderSkipped++
		} else {
			p.rep.Fetched++
		}
		p.mu.Unlock()
		if older {
			return f.finish(seq, watermark, nil)
		}
		screen := p.prepare(ctx, s, m, false)
		if screen == nil { // a copy or a blocked sender: nothing to wait for
			return f.finish(seq, watermark, nil)
		}
		f.sem <- struct{}{}
		f.wg.Add(1)
		go func() {
			defer func() { <-f.sem; f.wg.Done() }()
			c := screen()
			if c == nil {
				f.finish(seq, watermark, nil)
				return
			}
			c.seq, c.watermark = seq, watermark
			if full := b.add(c); full != nil {
				p.flush(ctx, s, f, full)
			}
		}()
		return nil
	})
	f.wg.Wait()
	if rest := b.take(); len(rest) > 0 {
		p.flush(ctx, s, f, rest)
	}
	if ferr := f.failed(); ferr != nil && err == nil {
		err = ferr
	}
	if serr := f.save(); serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("source %s: %w", s.Name, err)
	}
	return nil
}

// flight tracks a source's messages between read and durable: the
// watermark moves to a message only once it and all before it are done.
type flight struct {
	st   *state
	name string
	dry  bool
	sem  chan struct{}
	wg   sync.WaitGroup

	mu      sync.Mutex
	next    int            // sequence number of the next message read
	head    int            // the first message not yet done
	done    map[int]string // watermarks of done messages past head
	pending int            // watermark moves since the last save
	err     error          // the first failure: stop reading
}

func (f *flight) start() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	return f.next - 1
}

// fail stops the source's read with err unless it failed already.
func (f *flight) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *flight) failed() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// finish notes message seq done (err nil) and moves the watermark as far as
// the done messages reach without a gap; a failed message holds it back,
// and so does a held one (errHeld), which stops nothing else.
func (f *flight) finish(seq int, watermark string, err error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if errors.Is(err, errHeld) {
		return nil // never done: the watermark cannot pass it this run
	}
	if err != nil {
		if f.err == nil {
			f.err = err
		}
		return err
	}
	// Once the head reaches a done message it runs on through every done
	// one after it, so only the last of a run of done messages needs its
	// watermark. Dropping the others keeps memory to the gaps: a long run
	// of mail left out behind one batch still filling would otherwise hold
	// a watermark per message (a Maildir's grows with the folder).
	f.done[seq] = watermark
	if _, ok := f.done[seq-1]; ok {
		f.done[seq-1] = superseded
	}
	if _, ok := f.done[seq+1]; ok {
		f.done[seq] = superseded
	}
	for {
		wm, ok := f.done[f.head]
		if !ok {
			break
		}
		delete(f.done, f.head)
		f.head++
		if wm != superseded {
			f.st.Sources[f.name] = wm
		}
		f.pending++
	}
	if f.pending >= saveEvery {
		return f.saveLocked()
	}
	return nil
}

// superseded stands in a flight for the watermark of a done message that a
// later done message's watermark covers (no reader's watermark is a NUL).
const superseded = "\x00"

func (f *flight) save() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.saveLocked()
}

func (f *flight) saveLocked() error {
	if f.dry || f.pending == 0 {
		return nil
	}
	f.pending = 0
	return f.st.save()
}

// errHeld is a message the board refused: reported, the source reads on,
// but the watermark stays before it so the next run tries it again.
var errHeld = errors.New("refused by the board")

// admit runs one message through the whole path and waits for it.
func (p *pipeline) admit(ctx context.Context, s SourceConfig, m mail.Mail, released bool) error {
	if screen := p.prepare(ctx, s, m, released); screen != nil {
		if c := screen(); c != nil {
			if err := p.write(ctx, s, c); !errors.Is(err, errHeld) {
				return err
			}
		}
	}
	return nil
}

// prepare runs dedupe and route for one message, in read order, and
// returns the rest of its path to run while later messages are read: the
// screen, which answers the create to write (nil when the guard flagged the
// mail or the run writes nothing). prepare itself answers nil when nothing
// is left to do. Routing comes before the screen because it reads headers
// only, so the guard's scans can overlap while replies still find their
// thread.
func (p *pipeline) prepare(ctx context.Context, s SourceConfig, m mail.Mail, released bool) func() *create {
	m.Raw = nil // unused from here: messages in flight must not hold a big mail's bytes
	in := messageInput(s, m)
	key := dedupe.Key(&wire.Message{From: in.From, To: in.To, Cc: in.Cc, Body: in.Body, ReceivedAt: in.ReceivedAt, MessageID: in.MessageID})
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.router.keys[key] {
		p.rep.Duplicates++ // known before the screen: a copy is not scanned twice
		return nil
	}
	if !released && (p.blocked[address(m.FromAddr)] || p.blocked[address(m.From)]) {
		p.rep.Blocked++
		return nil
	}
	to := p.router.route(m.InReplyTo, m.References, in.ThreadID, in.From)
	// Taken now, before the create answers, so a copy or a reply read
	// while this one is in flight already finds it.
	planned := wire.Message{From: in.From, To: in.To, Cc: in.Cc, Body: in.Body, ReceivedAt: in.ReceivedAt,
		MessageID: dedupe.MessageID(in.MessageID), ThreadID: in.ThreadID, CaseID: to.caseID, ReminderID: to.reminderID}
	p.router.add(&planned)
	return func() *create {
		if released {
			in.Scan = wire.ScanReleased
		} else {
			scan, flagged := p.screen(ctx, s, m, in, to.caseID)
			if flagged {
				p.mu.Lock()
				p.rep.Quarantined++
				p.mu.Unlock()
				return nil
			}
			in.Scan = scan
		}
		if p.o.DryRun {
			p.mu.Lock()
			p.count(in, to)
			p.mu.Unlock()
			return nil
		}
		return &create{body: wire.MessageCreate{MessageInput: in, CaseID: to.caseID, ReminderID: to.reminderID}, to: to, ref: m.Ref}
	}
}

// write creates one message on its own. It fails only when the board
// cannot take mail at all; a message the board refuses is reported and
// answered errHeld, so one bad mail cannot stall its source and the
// watermark stays before it.
func (p *pipeline) write(ctx context.Context, s SourceConfig, c *create) error {
	msg, existing, err := p.o.Board.AddMessage(ctx, c.body)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		var refused *StatusError
		if !errors.As(err, &refused) || refused.Code >= 500 || ctx.Err() != nil {
			return err // the board cannot take mail now: stop, keep the watermark
		}
		p.rep.Errors = append(p.rep.Errors, fmt.Sprintf("source %s: message %s: %v", s.Name, c.ref, err))
		return errHeld
	}
	p.landed(c, msg, existing)
	return nil
}

// landed counts a message the board answered for; p.mu is held.
func (p *pipeline) landed(c *create, msg wire.Message, existing bool) {
	p.router.add(&msg)
	if existing {
		p.rep.Duplicates++
		return
	}
	p.count(c.body.MessageInput, c.to)
}

func (p *pipeline) count(in wire.MessageInput, to node) {
	p.rep.New++
	if in.Scan == wire.ScanUnscanned {
		p.rep.Unscanned++
	}
	switch to.kind() {
	case "case":
		p.rep.Routed.Case++
	case "reminder":
		p.rep.Routed.Reminder++
	default:
		p.rep.Routed.Inbox++
	}
}

// screen asks the guard about one message. Disabled or unreachable, the
// mail goes in unscanned as data (the mail path fails open on an outage by
// choice); flagged, the guard files a quarantine record and the mail stays
// off the board.
func (p *pipeline) screen(ctx context.Context, s SourceConfig, m mail.Mail, in wire.MessageInput, caseID string) (scan string, flagged bool) {
	if p.o.Guard == nil { // no guard configured: as if disabled
		return wire.ScanUnscanned, false
	}
	rep, err := p.o.Guard.Scan(ctx, wire.ScanRequest{From: in.From, Subject: in.Subject, Body: in.Body, ThreadID: in.ThreadID,
		MessageID: in.MessageID, CaseID: caseID, Record: !p.o.DryRun, Source: s.Name, SourceRef: m.Ref, HTML: guardHTML(m.HTML)})
	switch {
	case err != nil:
		p.mu.Lock()
		p.guardDown = true
		p.mu.Unlock()
		p.o.Logger.Warn("ingest.scan", "source", s.Name, "ref", m.Ref, "err", err)
		return wire.ScanUnscanned, false
	case rep.Disabled:
		return wire.ScanUnscanned, false
	case rep.Flagged:
		return "", true
	}
	return wire.ScanClean, false
}

// replay brings released quarantine records back from the original mail,
// without a second screen, and marks each replayed.
func (p *pipeline) replay(ctx context.Context, sources []SourceConfig) error {
	if p.o.Guard == nil {
		return nil
	}
	list, err := p.o.Guard.Quarantine(ctx)
	if err != nil {
		return nil // the guard is down: the records wait for the next run
	}
	byName := map[string]SourceConfig{}
	for _, s := range sources {
		byName[s.Name] = s
	}
	for _, q := range list.Records {
		s, ok := byName[q.Source]
		if q.Status != wire.QuarantineReleased || q.Replayed || !ok || q.SourceRef == "" {
			continue
		}
		src, err := p.o.OpenSource(s)
		if err != nil {
			p.rep.Errors = append(p.rep.Errors, fmt.Sprintf("replay %s: %v", q.ID, err))
			continue
		}
		m, err := src.Get(ctx, q.SourceRef)
		if err != nil {
			p.rep.Errors = append(p.rep.Errors, fmt.Sprintf("replay %s from %s %s: %v", q.ID, s.Name, q.SourceRef, err))
			continue
		}
		before := p.rep.New + p.rep.Duplicates
		if err := p.admit(ctx, s, m, true); err != nil {
			return err
		}
		if p.rep.New+p.rep.Duplicates == before || p.o.DryRun {
			continue // refused by the board: left for the next run
		}
		p.rep.Replayed++
		yes := true
		if _, err := p.o.Guard.PatchQuarantine(ctx, q.ID, wire.QuarantinePatch{Replayed: &yes}); err != nil {
			p.rep.Errors = append(p.rep.Errors, fmt.Sprintf("mark %s replayed: %v", q.ID, err))
		}
	}
	return nil
}

// messageInput is the board's form of a parsed mail. Nothing in it is
// interpreted: subject and body are stored as text.
func messageInput(s SourceConfig, m mail.Mail) wire.MessageInput {
	in := wire.MessageInput{
		Source: s.Name, From: m.From, To: m.To, Cc: m.Cc, Subject: m.Subject, Body: m.Body,
		Preview: preview(m.Body), MessageID: m.MessageID, ThreadID: threadOf(m), Outbound: s.Sent,
	}
	if in.From == "" {
		in.From = m.FromAddr
	}
	if !m.Date.IsZero() {
		in.ReceivedAt = m.Date.UTC().Format(time.RFC3339)
	}
	if in.Subject == "" && in.Body == "" {
		in.Subject = "(no subject)"
	}
	if len(m.Attachments) > 0 {
		var names []string
		for _, a := range m.Attachments {
			names = append(names, fmt.Sprintf("%s (%d bytes)", a.Name, a.Size))
		}
		in.Body = strings.TrimRight(in.Body, "\n") + "\n\nAttachments: " + capText(strings.Join(names, ", "), maxAttachmentList)
	}
	in.Truncated = slices.Clone(m.Truncated)
	in.OriginalSizes = maps.Clone(m.OriginalSizes)
	fitCreate(&in)
	return in
}

// threadOf is the thread's first Message-ID as the reply headers name it;
// "" for a mail that answers none (its own Message-ID names it already).
func threadOf(m mail.Mail) string {
	switch {
	case len(m.References) > 0:
		return dedupe.MessageID(m.References[0])
	case m.InReplyTo != "":
		return dedupe.MessageID(m.InReplyTo)
	}
	return ""
}

// preview is the first line-folded 160 characters of a body.
func preview(body string) string {
	s := strings.Join(strings.Fields(body), " ")
	if utf8.RuneCountInString(s) <= 160 {
		return s
	}
	return string([]rune(s)[:160]) + "…"
}

// guardHTML is the HTML part cut to what the guard accepts: a longer part
// would be refused and the mail admitted unscanned, so its first part is
// screened rather than none of it (the plain text is screened whole).
func guardHTML(h string) string {
	if len(h) <= wire.MaxGuardHTML {
		return h
	}
	cut := wire.MaxGuardHTML
	for cut > 0 && !utf8.RuneStart(h[cut]) { // never split a character
		cut--
	}
	return h[:cut]
}
