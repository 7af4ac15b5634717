package ingest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// DefaultSinceDays is how far back a source's first run reads when no since
// is set: a person pointing the board at ten years of mail wants this
// season's on the board the first day, not every message since the start.
// The cutoff is recorded, so later runs keep it until a since says
// otherwise.
const DefaultSinceDays = 90

// sinceLayout is how a since is written: a calendar day.
const sinceLayout = "2006-01-02"

// cutoff is the since that applies to source s on this run and the instant
// it starts (the beginning of that day in zone): the run's flag, else the
// source's own since, else the one recorded by an earlier run, else, on a
// source's first run, DefaultSinceDays back from now, recorded. A since
// earlier than the one recorded rescans the source from its start (the
// board's dedupe keeps each message once). A zero time means no cutoff: a
// source read before since existed keeps reading everything.
func cutoff(flag string, s SourceConfig, st *state, now time.Time, zone *time.Location) (time.Time, error) {
	since := strings.TrimSpace(flag)
	if since == "" {
		since = strings.TrimSpace(s.Since)
	}
	recorded := st.Since[s.Name]
	switch {
	case since == "" && recorded != "":
		since = recorded
	case since == "" && st.Sources[s.Name] == "":
		since = now.In(zone).AddDate(0, 0, -DefaultSinceDays).Format(sinceLayout)
	case since == "":
		return time.Time{}, nil
	}
	day, err := time.ParseInLocation(sinceLayout, since, zone)
	if err != nil {
		return time.Time{}, fmt.Errorf("source %s: since %q is not a date YYYY-MM-DD", s.Name, since)
	}
	if recorded != "" && since < recorded { // both YYYY-MM-DD: text order is date order
		st.Sources[s.Name] = ""
	}
	st.Since[s.Name] = since
	return day, nil
}

// prefsZone is the board's timezone preference when it names a zone, else def.
func prefsZone(prefs map[string]json.RawMessage, def *time.Location) *time.Location {
	var name string
	if raw, ok := prefs["timezone"]; ok && json.Unmarshal(raw, &name) == nil && name != "" && name != "Local" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	if def == nil {
		return time.UTC
	}
	return def
}
