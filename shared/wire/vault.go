package wire

// PageType is what a vault page is about. A page without a type (no `type`
// key, or frontmatter that does not parse) has none: it is listed, and no
// `?type=` filter matches it.
type PageType string

// The four page types; new pages of each go to a folder of their own.
const (
	PagePerson       PageType = "person"
	PageOrganization PageType = "organization"
	PageProject      PageType = "project"
	PageTopic        PageType = "topic"
)

// PageTypes lists the page types in the order the People view groups them.
func PageTypes() []PageType {
	return []PageType{PagePerson, PageOrganization, PageProject, PageTopic}
}

// PageSummary is a vault page as GET /api/vault lists it. ID is the
// board's id (V-<n>), absent until something refers to the page. Path is
// relative to the vault root, `/`-separated, with `.md`. Broken says why the
// page's frontmatter does not parse; such a page is never rewritten.
type PageSummary struct {
	ID        string   `json:"id,omitempty"`
	Path      string   `json:"path"`
	Title     string   `json:"title"`
	Type      PageType `json:"type,omitempty"`
	Aliases   []string `json:"aliases"`
	Emails    []string `json:"emails"`
	Domains   []string `json:"domains"`
	Cases     []string `json:"cases"`
	Broken    string   `json:"broken,omitempty"`
	UpdatedAt string   `json:"updatedAt"`
}

// PageList is GET /api/vault: pages by title. NextCursor is "" on the last
// page.
type PageList struct {
	Pages      []PageSummary `json:"pages"`
	NextCursor string        `json:"nextCursor"`
	Version    int64         `json:"version"`
}

// Page is one vault page whole: its summary, every frontmatter key as
// written (unknown keys included), the Markdown body, the body rendered to
// HTML (raw HTML off, wikilinks resolved to page links) and what links to
// it.
type Page struct {
	PageSummary
	// MergedInto is set on the stub a merge leaves behind: the page it
	// went into.
	MergedInto  string         `json:"mergedInto,omitempty"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	HTML        string         `json:"html"`
	Backlinks   PageBacklinks  `json:"backlinks"`
}

// PageBacklinks are the records that point at a page: the cases whose
// vaultLinks name it, the messages whose entities name it, and the pages
// whose body links it with [[its title]].
type PageBacklinks struct {
	Cases    []string `json:"cases"`
	Messages []string `json:"messages"`
	Pages    []string `json:"pages"`
}

// PageReply answers a page read or write. Existing is true when a create
// found the page already there (same title or alias, or an email already
// on a page) and wrote nothing. Changes lists the files a rename or merge
// rewrote, or with dryRun would rewrite.
type PageReply struct {
	Page     Page     `json:"page"`
	Existing bool     `json:"existing,omitempty"`
	DryRun   bool     `json:"dryRun,omitempty"`
	Changes  []string `json:"changes,omitempty"`
	Version  int64    `json:"version"`
}

// PageCreate is POST /api/vault/pages. FromMessage (M-<n>) names the mail
// the page is made from: an agent create whose message is not screened
// clean is filed as a proposal for the person instead.
type PageCreate struct {
	Title       string   `json:"title"`
	Type        PageType `json:"type"`
	Aliases     []string `json:"aliases,omitempty"`
	Emails      []string `json:"emails,omitempty"`
	Domains     []string `json:"domains,omitempty"`
	Body        string   `json:"body,omitempty"`
	FromMessage string   `json:"fromMessage,omitempty"`
	Actor       Actor    `json:"actor,omitempty"`
}

// PagePatch is PATCH /api/vault/pages/{id}. A title renames the page (its
// file, and [[Old title]] links in other pages); Append adds a dated line
// under the body's `## Timeline` heading; DryRun lists the files the write
// would change and changes nothing. Absent fields are left out of the
// body (omitzero), so a client's patch names only what it changes.
type PagePatch struct {
	Title   Opt[string]   `json:"title,omitzero"`
	Aliases Opt[[]string] `json:"aliases,omitzero"`
	Emails  Opt[[]string] `json:"emails,omitzero"`
	Domains Opt[[]string] `json:"domains,omitzero"`
	Body    Opt[string]   `json:"body,omitzero"`
	Append  string        `json:"append,omitempty"`
	DryRun  bool          `json:"dryRun,omitempty"`
	Actor   Actor         `json:"actor,omitempty"`
	// Override lets an agent's write through over the person's recent
	// change (logged in Activity); the agent's tools never send it.
	Override bool `json:"override,omitempty"`
}

// PageMerge is POST /api/vault/pages/{id}/merge: the page folds into
// IntoID and becomes a stub pointing there.
type PageMerge struct {
	IntoID string `json:"intoId"`
	DryRun bool   `json:"dryRun,omitempty"`
	Actor  Actor  `json:"actor,omitempty"`
}

// PageProposed answers an agent's page create that was filed for the
// person's approval (202): the mail it came from was not screened clean.
type PageProposed struct {
	Proposal Proposal `json:"proposal"`
	Version  int64    `json:"version"`
}

// UnresolvedSenders is GET /api/vault/unresolved: the senders of inbound
// mail that no page names, most recent first.
type UnresolvedSenders struct {
	Senders []UnresolvedSender `json:"senders"`
	Version int64              `json:"version"`
}

// UnresolvedSender is one address no page holds, with how much mail it
// sent and the pages it might belong to (from the display name against
// titles and aliases).
type UnresolvedSender struct {
	Address     string           `json:"address"`
	Name        string           `json:"name,omitempty"`
	Messages    int              `json:"messages"`
	LastAt      string           `json:"lastAt,omitempty"`
	Suggestions []PageSuggestion `json:"suggestions"`
}

// PageSuggestion is a page a sender might be, and why.
type PageSuggestion struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// VaultHealth is the vault's line in GET /api/health: how many pages it
// holds and how many of them do not parse. Broken pages never make the
// board degraded.
type VaultHealth struct {
	Pages   int  `json:"pages"`
	Broken  int  `json:"broken"`
	Loading bool `json:"loading,omitempty"`
}
