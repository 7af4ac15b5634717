package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// What a page answer shows at most: the body can be a long Markdown file
// and a person page can be the entity of thousands of messages, so the
// answer stays a few thousand characters and says what it left out.
const (
	maxPageBody      = 4000
	maxPageBacklinks = 20
	maxFrontValue    = 200
)

// managedKeys are the frontmatter keys the page's own lines already show;
// every other key is the person's and is listed as written.
var managedKeys = map[string]bool{
	"id": true, "boardId": true, "type": true, "title": true, "aliases": true,
	"emails": true, "domains": true, "cases": true, "mergedInto": true,
}

// PageRef is how an answer names a page: its id, or its path while it has
// none (the board mints the id when something first refers to the page).
func PageRef(p *wire.PageSummary) string {
	if p.ID != "" {
		return p.ID
	}
	return p.Path
}

// PageLine is one page on one line: id, type, title, path and its flag.
func PageLine(p *wire.PageSummary) string {
	var b strings.Builder
	typ := string(p.Type)
	if typ == "" {
		typ = "no type"
	}
	if p.ID != "" {
		fmt.Fprintf(&b, "%s - ", p.ID)
	}
	fmt.Fprintf(&b, "[%s] %s - %s", typ, p.Title, p.Path)
	if p.Broken != "" {
		fmt.Fprintf(&b, " - BROKEN: %s; the person must fix the file before any write", oneLine(p.Broken))
	}
	return b.String()
}

// Page renders get_page: the page's line, its fields, the person's own
// properties, what links to it and its Markdown body.
func Page(p wire.Page) string {
	var b strings.Builder
	b.WriteString(PageLine(&p.PageSummary) + "\n")
	if p.MergedInto != "" {
		fmt.Fprintf(&b, "Merged into %s: use %s.\n", p.MergedInto, p.MergedInto)
	}
	pageFields(&b, &p.PageSummary)
	if own := ownProperties(p.Frontmatter); own != "" {
		b.WriteString("Properties: " + own + "\n")
	}
	b.WriteString("Linked from: " + backlinks(p.Backlinks) + "\n")
	if p.UpdatedAt != "" {
		b.WriteString("Updated: " + p.UpdatedAt + "\n")
	}
	body := strings.TrimSpace(p.Body)
	if body == "" {
		b.WriteString("Body: empty")
		return b.String()
	}
	b.WriteString("Body:\n" + clip(body, maxPageBody))
	if n := len([]rune(body)) - maxPageBody; n > 0 {
		fmt.Fprintf(&b, "\n(%d more characters not shown; the file is %s in the vault.)", n, p.Path)
	}
	return b.String()
}

// pageFields writes the managed lists, one line each, when they hold any.
func pageFields(b *strings.Builder, p *wire.PageSummary) {
	for _, f := range []struct {
		name string
		v    []string
	}{{"Aliases", p.Aliases}, {"Emails", p.Emails}, {"Domains", p.Domains}, {"Cases", p.Cases}} {
		if len(f.v) > 0 {
			fmt.Fprintf(b, "%s: %s\n", f.name, strings.Join(f.v, ", "))
		}
	}
}

// ownProperties lists the frontmatter keys the board does not manage, by
// name, each value on the line it shares.
func ownProperties(front map[string]any) string {
	var keys []string
	for k := range front {
		if !managedKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+clip(oneLine(fmt.Sprint(front[k])), maxFrontValue))
	}
	return strings.Join(parts, "; ")
}

func backlinks(l wire.PageBacklinks) string {
	var parts []string
	for _, g := range []struct {
		name string
		ids  []string
	}{{"cases", l.Cases}, {"messages", l.Messages}, {"pages", l.Pages}} {
		if len(g.ids) == 0 {
			continue
		}
		shown := g.ids[:min(len(g.ids), maxPageBacklinks)]
		s := g.name + " " + strings.Join(shown, ", ")
		if more := len(g.ids) - len(shown); more > 0 {
			s += fmt.Sprintf(" and %d more", more)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

// Entity is what find_entity found: the best page read whole and why it
// matched, the page a stub it matched was merged into, and the other pages
// that match as well as the best (the answer is ambiguous when any do).
type Entity struct {
	Query  string
	Page   *wire.Page // nil: no page matches
	Reason string
	Via    string         // the merged stub that led to Page, "" when none
	Others []EntityChoice // as good as Page
	Weaker []EntityChoice // matched, less well
}

// EntityChoice is a page that matched a find_entity query, and how.
type EntityChoice struct {
	Page   wire.PageSummary
	Reason string
}

// maxWeaker bounds the weaker matches a find_entity answer lists.
const maxWeaker = 5

// FoundEntity renders find_entity: the best page and the reason on the
// first lines, whether it is ambiguous, then the page's fields.
func FoundEntity(e Entity) string {
	if e.Page == nil {
		return fmt.Sprintf("No vault page matches %q. If it is a sender, list_unresolved_senders may suggest a page; to make one: create_page (one page per person or organisation).", e.Query)
	}
	var b strings.Builder
	b.WriteString("Best: " + PageLine(&e.Page.PageSummary) + "\n")
	b.WriteString("Why: " + e.Reason)
	if e.Via != "" {
		fmt.Fprintf(&b, " (on %s, merged into this page)", e.Via)
	}
	b.WriteByte('\n')
	if len(e.Others) == 0 {
		b.WriteString("Ambiguous: no\n")
	} else {
		fmt.Fprintf(&b, "Ambiguous: yes, %d more %s match as well; ask the person or read each with get_page before writing:\n", len(e.Others), plural(len(e.Others), "page", "pages"))
		choices(&b, e.Others, len(e.Others))
	}
	pageFields(&b, &e.Page.PageSummary)
	if len(e.Weaker) > 0 {
		b.WriteString("Weaker matches:\n")
		choices(&b, e.Weaker, maxWeaker)
	}
	return strings.TrimRight(b.String(), "\n")
}

func choices(b *strings.Builder, cs []EntityChoice, most int) {
	for _, c := range cs[:min(len(cs), most)] {
		fmt.Fprintf(b, "- %s (%s)\n", PageLine(&c.Page), c.Reason)
	}
	if m := More(min(len(cs), most), len(cs), "narrow the query or pass type"); m != "" {
		b.WriteString(m + "\n")
	}
}

// UnresolvedSenders renders list_unresolved_senders: one sender a line,
// with the pages it might be.
func UnresolvedSenders(u wire.UnresolvedSenders, limit int) string {
	if len(u.Senders) == 0 {
		return "Every sender of inbound mail is on a vault page."
	}
	var b strings.Builder
	shown := u.Senders[:min(limit, len(u.Senders))]
	for _, s := range shown {
		b.WriteString(s.Address)
		if s.Name != "" {
			fmt.Fprintf(&b, " (%s)", oneLine(s.Name))
		}
		fmt.Fprintf(&b, " - %d %s", s.Messages, plural(s.Messages, "message", "messages"))
		if s.LastAt != "" {
			b.WriteString(", last " + s.LastAt)
		}
		if len(s.Suggestions) > 0 {
			parts := make([]string, 0, len(s.Suggestions))
			for _, g := range s.Suggestions {
				parts = append(parts, fmt.Sprintf("%s (%s)", g.ID, oneLine(g.Reason)))
			}
			b.WriteString(" - might be " + strings.Join(parts, ", "))
		}
		b.WriteByte('\n')
	}
	if m := More(len(shown), len(u.Senders), "raise limit"); m != "" {
		b.WriteString(m + "\n")
	}
	b.WriteString("To resolve one: add the address to its page's emails with update_page (its past mail follows), or create_page.")
	return b.String()
}

// PageWrite renders the answer of a page write: what was done and the
// page's line, and the files a rename or merge rewrote; with dryRun, only
// the files the write would change.
func PageWrite(done string, p *wire.PageSummary, dryRun bool, changes []string) string {
	if dryRun {
		if len(changes) == 0 {
			return "Dry run, nothing changed: the write would change no file."
		}
		return fmt.Sprintf("Dry run, nothing changed: the write would change %d %s:\n- %s",
			len(changes), plural(len(changes), "file", "files"), strings.Join(changes, "\n- "))
	}
	out := done + " " + PageLine(p)
	if len(changes) > 0 {
		out += fmt.Sprintf("\nFiles changed (%d):\n- %s", len(changes), strings.Join(changes, "\n- "))
	}
	return out
}
