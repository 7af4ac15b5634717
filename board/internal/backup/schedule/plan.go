package schedule

import (
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Windows of the automatic runs (the README's Limits table holds their values).
const (
	// FreshFor: a snapshot younger than this needs no top-up, and Back up
	// now skips unless forced.
	FreshFor = wire.BackupFreshFor
	// RetryAfter: a top-up that ran and did not leave a fresh snapshot (the
	// job failed) is not tried again before this, so a broken setup is not
	// retried on every list of cases.
	RetryAfter = time.Hour
	// RecheckNotLive: how soon a board that failed the identity check looks
	// again (a key stored in the credential store meanwhile counts).
	RecheckNotLive = 5 * time.Minute
)

// The daily floor run's local time of day.
const (
	DailyHour   = 3
	DailyMinute = 30
)

// Created is a snapshot's creation time; the zero time when it has none
// that parses.
func Created(s wire.BackupSnapshot) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s.Created)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Fresh reports whether a snapshot created at newest is younger than
// FreshFor at now. No snapshot (the zero time) is never fresh; one dated
// in the future (a clock set back) counts as fresh rather than piling up
// runs.
func Fresh(newest, now time.Time) bool {
	return !newest.IsZero() && now.Sub(newest) < FreshFor
}

// TopUp decides a top-up check: whether to run now, and when to check
// again at the earliest (the request path does nothing before then).
func TopUp(live bool, newest, now time.Time) (run bool, recheck time.Time) {
	switch {
	case !live:
		return false, now.Add(RecheckNotLive)
	case Fresh(newest, now):
		return false, newest.Add(FreshFor)
	}
	return true, now.Add(RetryAfter)
}

// NextDaily is the first 03:30 in zone strictly after now. On a day whose
// clocks skip 03:30 it is the instant time.Date normalizes it to.
func NextDaily(now time.Time, zone *time.Location) time.Time {
	if zone == nil {
		zone = time.UTC
	}
	l := now.In(zone)
	next := time.Date(l.Year(), l.Month(), l.Day(), DailyHour, DailyMinute, 0, 0, zone)
	if !next.After(now) {
		next = time.Date(l.Year(), l.Month(), l.Day()+1, DailyHour, DailyMinute, 0, 0, zone)
	}
	return next
}
