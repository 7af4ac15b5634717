package ingest

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/imapsource"
)

// settle is how long a watched folder stays quiet before its source is
// read: a mail written in pieces, or a burst of deliveries, costs one run.
const settle = 500 * time.Millisecond

// Backoff bounds of a lost IDLE connection's reconnects.
const (
	idleRetryFirst = time.Second
	idleRetryMax   = 5 * time.Minute
)

// idler is a source that can wait for new mail (an IMAP server with IDLE).
type idler interface {
	WaitNew(ctx context.Context, ready func()) error
}

var _ idler = (*imapsource.Source)(nil)

// WatchOptions say what to watch and what to do when a source may hold
// new mail.
type WatchOptions struct {
	Config Config
	// Open opens an IMAP source for IDLE; nil uses Open with os.Getenv.
	Open   func(SourceConfig) (mail.Source, error)
	Logger *slog.Logger
	// Run reads the named source once; Watch calls it from one goroutine,
	// one source at a time.
	Run func(ctx context.Context, name string)
}

// Watch brings new mail in as it arrives, until ctx ends: Maildir and .eml
// folders (and an mbox's file) are watched for new files, and an IMAP
// source waits in IDLE where its server offers it, reconnecting with
// backoff. A source it cannot watch is left to the scheduled interval.
func Watch(ctx context.Context, o WatchOptions) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Open == nil {
		o.Open = func(s SourceConfig) (mail.Source, error) { return Open(s, os.Getenv) }
	}
	due := make(chan string, len(o.Config.Sources)+1)
	q := newRunQueue()
	kick := func(name string) {
		if q.add(name) {
			select {
			case due <- name:
			default: // the runner is already woken
			}
		}
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		o.Logger.Warn("ingest.watch", "err", err)
	} else {
		defer fw.Close()
		dirs := addFolders(fw, o)
		go watchFolders(ctx, fw, dirs, o.Logger, kick)
	}
	for _, s := range o.Config.Sources {
		kick(s.Name) // what came before the watch began, and a first word on each source's health
		if s.Kind == "imap" {
			go idleLoop(ctx, o, s, kick)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-due:
			for _, name := range q.take() {
				o.Run(ctx, name)
			}
		}
	}
}

// folder is the source a watched directory belongs to, and for an mbox the
// one file in it that matters.
type folder struct {
	source string
	file   string // "" for any file
}

// addFolders watches each folder source's directories.
func addFolders(fw *fsnotify.Watcher, o WatchOptions) map[string]folder {
	dirs := map[string]folder{}
	for _, s := range o.Config.Sources {
		var add []string
		f := folder{source: s.Name}
		switch s.Kind {
		case "maildir":
			add = []string{filepath.Join(s.Path, "new"), filepath.Join(s.Path, "cur")}
		case "eml":
			add = []string{s.Path}
		case "mbox":
			add, f.file = []string{filepath.Dir(s.Path)}, filepath.Base(s.Path)
		}
		for _, d := range add {
			if err := fw.Add(d); err != nil {
				o.Logger.Warn("ingest.watch", "source", s.Name, "dir", d, "err", err)
				continue
			}
			dirs[filepath.Clean(d)] = f
		}
	}
	return dirs
}

// watchFolders kicks a source's run once its directory has settled after
// a change.
func watchFolders(ctx context.Context, fw *fsnotify.Watcher, dirs map[string]folder, log *slog.Logger, kick func(string)) {
	timers := map[string]*time.Timer{}
	defer func() {
		for _, t := range timers {
			t.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case err := <-fw.Errors:
			log.Warn("ingest.watch", "err", err)
		case ev := <-fw.Events:
			f, ok := dirs[filepath.Dir(ev.Name)]
			if !ok || (f.file != "" && filepath.Base(ev.Name) != f.file) || !ev.Has(fsnotify.Create|fsnotify.Write|fsnotify.Rename) {
				continue
			}
			name := f.source
			if t, ok := timers[name]; ok {
				t.Reset(settle)
			} else {
				timers[name] = time.AfterFunc(settle, func() { kick(name) })
			}
		}
	}
}

// idleLoop waits in IDLE on one IMAP source and kicks a run for each
// arrival, and each time IDLE starts, for mail that came while it was not
// waiting (before the first connection, between two waits, while a
// connection was lost).
func idleLoop(ctx context.Context, o WatchOptions, s SourceConfig, kick func(string)) {
	src, err := o.Open(s)
	if err != nil {
		o.Logger.Warn("ingest.idle", "source", s.Name, "err", err)
		return
	}
	w, ok := src.(idler)
	if !ok {
		return
	}
	wait := idleRetryFirst
	for ctx.Err() == nil {
		err := w.WaitNew(ctx, func() { wait = idleRetryFirst; kick(s.Name) })
		switch {
		case err == nil:
			kick(s.Name)
			continue
		case errors.Is(err, imapsource.ErrNoIdle):
			o.Logger.Info("ingest.idle", "source", s.Name, "msg", "no IDLE: read on the interval")
			return
		case ctx.Err() != nil:
			return
		}
		o.Logger.Warn("ingest.idle", "source", s.Name, "err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, idleRetryMax)
	}
}
