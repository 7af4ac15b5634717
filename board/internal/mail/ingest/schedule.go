package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseInterval reads an ingest interval: a Go duration ("15m", "1h") or a
// number of minutes. "", "0" and "off" mean no scheduled run.
func ParseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "0", "off":
		return 0, nil
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
		return time.Duration(n * float64(time.Minute)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("ingest interval %q: want a duration such as 15m, or minutes", s)
	}
	return d, nil
}

// PrefsInterval is the ingestInterval board preference (a string or a
// number of minutes); 0 when it is absent or unreadable.
func PrefsInterval(prefs map[string]json.RawMessage) time.Duration {
	raw, ok := prefs["ingestInterval"]
	if !ok {
		return 0
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0
	}
	d, err := ParseInterval(fmt.Sprint(v))
	if err != nil {
		return 0
	}
	return d
}

// Schedule calls run whenever interval() (asked every tick) says a run is
// due; interval 0 means off, so the scheduled run is off until it is set.
// It returns when ctx ends.
func Schedule(ctx context.Context, tick time.Duration, interval func(context.Context) time.Duration, run func(context.Context)) {
	t := time.NewTicker(tick)
	defer t.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if d := interval(ctx); d > 0 && now.Sub(last) >= d {
				last = now
				run(ctx)
			}
		}
	}
}
