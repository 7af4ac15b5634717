package store

import (
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxActivity is how many activity entries a case keeps (spec: Limits).
const maxActivity = 50

func oneOf(field, v string, allowed []string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return errs.BadRequest("field '%s' must be one of %s, not %q", field, strings.Join(allowed, ", "), v)
}

// cleanList trims, drops empties and dedupes, keeping first-seen order.
func cleanList(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// validDate accepts an ISO date (YYYY-MM-DD) or an RFC 3339 datetime (with
// or without seconds or zone), which is what people and agents send.
func validDate(s string) bool {
	for _, layout := range []string{"2006-01-02", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04Z07:00"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

func checkDate(field, s string) error {
	if s == "" || validDate(s) {
		return nil
	}
	return errs.BadRequest("field '%s' must be an ISO date (YYYY-MM-DD) or datetime, not %q", field, s)
}

// safeURL keeps only absolute http and https URLs; anything else is dropped.
func safeURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// checkLabels refuses label ids missing from the catalog, naming them and
// the valid set.
func checkLabels(tx *Tx, ids []string) error {
	known := map[string]bool{}
	for _, l := range tx.d.Labels {
		known[l.ID] = true
	}
	var unknown []string
	for _, id := range ids {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	valid := make([]string, 0, len(known))
	for id := range known {
		valid = append(valid, id)
	}
	sort.Strings(valid)
	return errs.BadRequest("unknown label id(s): %s. Valid label ids: %s", strings.Join(unknown, ", "), strings.Join(valid, ", "))
}

// logActivity appends an entry and keeps the last maxActivity.
func logActivity(c *wire.Case, actor, verb, detail, ts string) {
	c.Activity = append(c.Activity, wire.Activity{Actor: actor, Verb: verb, TS: ts, Detail: detail})
	if n := len(c.Activity); n > maxActivity {
		c.Activity = append([]wire.Activity(nil), c.Activity[n-maxActivity:]...)
	}
}

// normTitle is the title as dedupe compares it.
func normTitle(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// nextChildID mints <owner>-<tag><k>, k continuing from the highest existing.
func nextChildID(owner, tag string, existing []string) string {
	hi := 0
	prefix := owner + "-" + tag
	for _, id := range existing {
		if n, err := strconv.Atoi(strings.TrimPrefix(id, prefix)); err == nil && strings.HasPrefix(id, prefix) && n > hi {
			hi = n
		}
	}
	return prefix + strconv.Itoa(hi+1)
}

func taskIDs(c *wire.Case) []string {
	out := make([]string, len(c.Tasks))
	for i, t := range c.Tasks {
		out[i] = t.ID
	}
	return out
}

func noteIDs(c *wire.Case) []string {
	out := make([]string, len(c.Notes))
	for i, n := range c.Notes {
		out[i] = n.ID
	}
	return out
}

// ActivityCategory groups activity verbs for the filters of the page.
func ActivityCategory(verb string) string {
	switch {
	case verb == "status_changed":
		return "status"
	case strings.HasPrefix(verb, "task_"):
		return "tasks"
	case strings.HasPrefix(verb, "note_"):
		return "notes"
	case strings.HasPrefix(verb, "message_"):
		return "messages"
	case strings.HasPrefix(verb, "event_"):
		return "events"
	case strings.HasPrefix(verb, "reminder_"):
		return "reminders"
	case verb == "kind_changed", verb == "parent_changed", strings.HasPrefix(verb, "merged_"), verb == "child_detached", verb == "child_adopted":
		return "hierarchy"
	case verb == "labels_changed":
		return "labels"
	case verb == "starred", verb == "unstarred":
		return "priority"
	case verb == "created", verb == "archived", verb == "restored":
		return "lifecycle"
	}
	return "edit"
}
