package wire

import (
	"fmt"
	"time"
)

// Every limit a person or a client can run into, in one place, so the code
// that enforces a limit and the README's Limits section (which a test holds
// to Limits) cannot drift apart. Internal knobs no caller can reach (how
// much of another process's answer is read, how deep the encoder indents)
// stay beside their code.

// Request sizes of the board's API.
const (
	// MaxRequestBody bounds every request body but an import's (413 beyond).
	MaxRequestBody = 1 << 20
	// MaxImportBody bounds an import's body: a file is larger than any
	// other write.
	MaxImportBody = 32 << 20
	// MaxFreeFormBytes and MaxFreeFormDepth bound a free-form JSON value
	// (saved-view filters, preferences, proposal payloads, templates): the
	// board stores them as sent, so these bound what one request adds.
	MaxFreeFormBytes = 64 << 10
	MaxFreeFormDepth = 32
	// MaxMessageBatch and MaxMessageBatchBytes bound the batch form of
	// POST /api/messages: one write holds the store's lock, so a batch
	// stays short enough that the page's reads and writes never wait long.
	MaxMessageBatch      = 100
	MaxMessageBatchBytes = 1 << 20
	// MaxDateText bounds a date in words: the parser's time grows with the
	// text, and a date is a few words of it.
	MaxDateText = 1000
)

// Lists and pages.
const (
	// MaxCaseActivity is how many activity entries a case keeps.
	MaxCaseActivity = 50
	// MaxActivityPage bounds the limit of one read of the activity feed.
	MaxActivityPage = 5000
	// MaxInboxPage bounds the limit of one page of the inbox.
	MaxInboxPage = 200
	// SummaryDetailMax is how many characters of an activity row's detail
	// the summary view keeps.
	SummaryDetailMax = 160
	// PreviewMax is how much of a body a summary's preview takes when the
	// message has no preview of its own.
	PreviewMax = 140
	// HierarchyDepth is how many tiers the tree has: initiative >
	// workstream > case.
	HierarchyDepth = 3
	// MaxFindResults bounds each list of the command bar's find, so an
	// answer stays readable; the search view has the rest.
	MaxFindResults = 50
	// MaxReminderTasks is how many rows a reminder's checklist may hold when
	// a write sets it: a checklist is a short list to tick off, and every
	// list the page renders in full needs a bound.
	MaxReminderTasks = 100
)

// Calendar and repeating rules.
const (
	// MaxOccurrences is how many occurrences of one series a read lists.
	MaxOccurrences = 1000
	// MaxRepeatSteps bounds how many occurrences one expansion walks from
	// a series' start: a daily series 130 years long.
	MaxRepeatSteps = 50000
	// MaxRepeatInterval and MaxRepeatCount bound a rule's numbers:
	// generous for people, small enough that no rule runs away.
	MaxRepeatInterval = 999
	MaxRepeatCount    = 999
)

// Search.
const (
	// MaxSearchQueries is how many queries one search ranks; later ones
	// are ignored, so one call cannot ask for unbounded work.
	MaxSearchQueries = 32
	// MaxSearchK bounds k, the results per query (at least 1).
	MaxSearchK = 50
	// SearchSidecarTimeout bounds the board's whole semantic call; past it
	// the board answers from its keyword path.
	SearchSidecarTimeout = 800 * time.Millisecond
	// MaxSearchSidecarBody bounds a request body of the search sidecar.
	MaxSearchSidecarBody = 1 << 20
	// MaxSearchSidecarLimit bounds the limit of one ranking call of the
	// search sidecar.
	MaxSearchSidecarLimit = 200
	// MaxEmbedTokens is how many tokens of a text the search embedder
	// reads; the rest does not count.
	MaxEmbedTokens = 512
)

// Mail and the prompt-injection guard.
const (
	// MaxMIMEDepth bounds how deep nested multiparts are walked, so a
	// hostile message cannot make the parser recurse without end.
	MaxMIMEDepth = 50
	// MaxMIMEParts bounds how many parts of one mail are read; later
	// parts are skipped.
	MaxMIMEParts = 1000
	// MaxMailRaw bounds the bytes read of one message from its source; the
	// rest is never read, so a huge mail costs bounded memory.
	MaxMailRaw = 25 << 20
	// MaxMailPart bounds the decoded bytes read of one part.
	MaxMailPart = 25 << 20
	// MaxMailBody is how much of a mail's text the board keeps, so every
	// parsed mail fits the board's create.
	MaxMailBody = 256 << 10
	// MaxMailSubject is how many characters of a subject are kept.
	MaxMailSubject = 1000
	// MaxMailRecipients is how many addresses of To and Cc together are
	// kept, To first.
	MaxMailRecipients = 500
	// MaxMailHeaderLines and MaxMailHeaderLine bound a mail's header: the
	// surplus lines are dropped, never those the board reads.
	MaxMailHeaderLines = 1000
	MaxMailHeaderLine  = 64 << 10
	// MaxHTMLDepth bounds how deep nested HTML elements are laid out when
	// an HTML body becomes text; deeper tags are ignored, their text kept.
	MaxHTMLDepth = 512
	// MaxIngestRuns is how many ingest run reports the board keeps.
	MaxIngestRuns = 200
	// MaxIngestRunErrors is how many error lines a stored report keeps.
	MaxIngestRunErrors = 20
	// MaxBoardActivity is how many Activity rows that belong to no case
	// the board keeps.
	MaxBoardActivity = 500
	// GuardTimeout bounds every call of the guard's client, so the agent's
	// bridge answers (UNAVAILABLE at worst) rather than hang.
	GuardTimeout = 4000 * time.Millisecond
	// GuardProxyTimeout bounds the board's proxied calls to the guard.
	GuardProxyTimeout = 1000 * time.Millisecond
	// MaxGuardBody bounds a request body of the guard: a long mail with
	// quoted history fits.
	MaxGuardBody = 4 << 20
	// MaxGuardHTML bounds the HTML part a scan may carry beside the body:
	// half a request, so a mail's text and its HTML part fit in one.
	MaxGuardHTML = MaxGuardBody / 2
	// MaxGuardTexts is how many texts one /classify call may send.
	MaxGuardTexts = 256
	// MaxGuardModelText is the longest text the guard's model scores, in
	// characters; a longer one goes to the rule-based detector instead of
	// being cut, because an attacker would put the payload past the cut.
	MaxGuardModelText = 1 << 20
	// QuarantineReleasedDays is how long a released, never replayed
	// quarantine record is kept unless a person sets otherwise.
	QuarantineReleasedDays = 7
)

// Repeated creates.
const (
	// IdempotencyWindow is how long the board answers a repeated
	// Idempotency-Key with the first answer instead of writing again.
	IdempotencyWindow = 24 * time.Hour
	// MaxIdempotencyKeys is how many keys the board keeps; the oldest drop
	// first, so a flood of keys cannot grow the document without bound.
	MaxIdempotencyKeys = 10000
	// MaxIdempotencyKeyLen bounds the header's value (printable ASCII).
	MaxIdempotencyKeyLen = 255
)

// The person's edits against the agent.
const (
	// HumanEditWindow is how long a person's change to a field stands
	// against an agent write that would change it again, unless the
	// humanEditWindow preference (whole days) says otherwise. A write that
	// sets a field back to the value the person replaced is refused at any
	// age.
	HumanEditWindow = 7 * 24 * time.Hour
	// MaxHumanEditWindowDays is the largest humanEditWindow preference.
	MaxHumanEditWindowDays = 90
)

// Local snapshots and the off-site backup.
const (
	// SnapshotKeepAll: every local snapshot from this long ago is kept.
	SnapshotKeepAll = 36 * time.Hour
	// SnapshotKeepDaily: past SnapshotKeepAll, the newest of each UTC day
	// is kept for this long.
	SnapshotKeepDaily = 30 * 24 * time.Hour
	// BackupFreshFor: a backup younger than this needs no top-up, and
	// Back up now skips unless forced.
	BackupFreshFor = 12 * time.Hour
	// BackupLockStaleAfter is when a backup lock nobody refreshed is taken
	// to be left behind by a run that died, and reclaimed.
	BackupLockStaleAfter = 120 * time.Second
)

// The vault.
const (
	// MaxPageBytes bounds a vault page file: the board neither reads nor
	// writes a larger one (a larger file by hand is listed as broken).
	MaxPageBytes = 1 << 20
	// MaxPageList bounds the limit of one page of GET /api/vault;
	// DefaultPageList is the limit when none is given.
	MaxPageList     = 500
	DefaultPageList = 100
	// MaxPageMessages is how many of the messages naming a page its
	// backlinks list, newest first: a person a board has known for years
	// has thousands.
	MaxPageMessages = 100
)

// Limit is one row of the Limits table: its name as a person reads it, its
// value as text, and what it applies to.
type Limit struct {
	Name      string
	Value     string
	AppliesTo string
}

// Limits is every limit above, in the order the README lists them.
func Limits() []Limit {
	return []Limit{
		{"request body", bytesText(MaxRequestBody), "every request to the board's API except an import (413 beyond)"},
		{"import body", bytesText(MaxImportBody), "`POST /api/import` (413 beyond)"},
		{"free-form value size", bytesText(MaxFreeFormBytes), "a saved view's filters, a preference, a template, a proposal's payload"},
		{"free-form value nesting", levels(MaxFreeFormDepth), "the same free-form values"},
		{"message batch", fmt.Sprintf("%d messages", MaxMessageBatch), "`messages` of the batch form of `POST /api/messages` (413 beyond)"},
		{"message batch body", bytesText(MaxMessageBatchBytes), "the batch form of `POST /api/messages` (413 beyond)"},
		{"date in words", fmt.Sprintf("%d bytes", MaxDateText), "`GET /api/dates/parse?text=`"},
		{"activity kept per case", entries(MaxCaseActivity), "a case's own activity log; older entries drop off"},
		{"activity page", fmt.Sprintf("1 to %d rows", MaxActivityPage), "`limit` of `GET /api/activity`"},
		{"inbox page", fmt.Sprintf("1 to %d messages", MaxInboxPage), "`limit` of `GET /api/messages`"},
		{"activity detail in summaries", chars(SummaryDetailMax), "each row of `GET /api/activity?view=summary`"},
		{"message preview", chars(PreviewMax), "a message summary's preview when the mail has none of its own"},
		{"hierarchy depth", levels(HierarchyDepth), "initiative > workstream > case"},
		{"find results", fmt.Sprintf("%d of each kind", MaxFindResults), "cases, tasks, messages and reminders a `find` of `POST /api/command` lists"},
		{"reminder checklist", fmt.Sprintf("%d tasks", MaxReminderTasks), "a reminder's `tasks` when a create or patch sets them (400 beyond)"},
		{"occurrences per series", fmt.Sprint(MaxOccurrences), "a repeating event in one read of events or the agenda"},
		{"recurrence expansion", fmt.Sprintf("%d steps", MaxRepeatSteps), "occurrences walked from a series' start"},
		{"recurrence interval", fmt.Sprintf("1 to %d", MaxRepeatInterval), "`INTERVAL` of a repeat rule"},
		{"recurrence count", fmt.Sprintf("1 to %d", MaxRepeatCount), "`COUNT` of a repeat rule"},
		{"search queries", fmt.Sprint(MaxSearchQueries), "queries one search ranks; later ones are ignored"},
		{"search results per query", fmt.Sprintf("1 to %d", MaxSearchK), "`k` of `POST /api/search`"},
		{"search sidecar wait", durationText(SearchSidecarTimeout), "the board's semantic call; past it the answer comes from keywords"},
		{"search sidecar body", bytesText(MaxSearchSidecarBody), "a request to the search sidecar"},
		{"search sidecar results", fmt.Sprintf("1 to %d", MaxSearchSidecarLimit), "`limit` of one call to the search sidecar"},
		{"embedded text", fmt.Sprintf("%d tokens", MaxEmbedTokens), "what the search sidecar's embedder reads of a text"},
		{"mail read per message", bytesText(MaxMailRaw), "the raw bytes of one mail read from its source; the rest is cut (noted as `raw`)"},
		{"mail header lines", fmt.Sprintf("%d lines", MaxMailHeaderLines), "header lines kept of one mail; surplus ones are dropped, never From, To, Cc, Subject, Date, Message-ID, In-Reply-To, References or Content-* (noted as `headers`)"},
		{"mail header line", bytesText(MaxMailHeaderLine), "one header line of a mail; a longer one is dropped unless the board reads it (noted as `headers`)"},
		{"MIME nesting", levels(MaxMIMEDepth), "nested multiparts read of one mail (noted as `mime`)"},
		{"MIME parts", fmt.Sprint(MaxMIMEParts), "parts read of one mail; later ones are skipped (noted as `parts`)"},
		{"mail part", bytesText(MaxMailPart), "the decoded bytes read of one part (noted as `part`)"},
		{"HTML nesting", levels(MaxHTMLDepth), "nested elements laid out when an HTML body becomes text; deeper tags are ignored, their text kept (noted as `html`)"},
		{"mail body kept", bytesText(MaxMailBody), "a mail's text on the board (noted as `body`)"},
		{"mail subject", chars(MaxMailSubject), "a mail's subject on the board (noted as `subject`)"},
		{"mail recipients", fmt.Sprint(MaxMailRecipients), "To and Cc addresses kept together, To first (noted as `to`, `cc`)"},
		{"ingest runs kept", fmt.Sprint(MaxIngestRuns), "mail ingest run reports"},
		{"errors per ingest run", fmt.Sprint(MaxIngestRunErrors), "error lines a stored run report keeps"},
		{"board activity rows kept", fmt.Sprint(MaxBoardActivity), "Activity rows that belong to no case (overrides of a priority note, a label, a view or a template)"},
		{"guard wait", durationText(GuardTimeout), "every call of the guard's client (the agent's bridge answers UNAVAILABLE past it)"},
		{"guard wait through the board", durationText(GuardProxyTimeout), "the board's calls to the guard on the page's behalf"},
		{"guard body", bytesText(MaxGuardBody), "a request to the guard sidecar"},
		{"guard HTML part", bytesText(MaxGuardHTML), "`html` of the guard's `POST /scan` (400 beyond; the board cuts a longer part to it)"},
		{"guard texts per call", fmt.Sprint(MaxGuardTexts), "`POST /classify` of the guard sidecar"},
		{"guard model text", chars(MaxGuardModelText), "a text the guard's model scores; longer ones go to the rule-based detector"},
		{"quarantine kept after release", durationText(QuarantineReleasedDays * 24 * time.Hour), "a released, never replayed quarantine record (the default; `releasedTtlDays` changes it)"},
		{"idempotency key", fmt.Sprintf("1 to %d printable ASCII characters", MaxIdempotencyKeyLen), "the `Idempotency-Key` header of a create (400 otherwise)"},
		{"idempotency keys remembered", durationText(IdempotencyWindow), "a repeated key answers the first answer; later it is a new create"},
		{"idempotency keys kept", fmt.Sprint(MaxIdempotencyKeys), "keys the board holds; the oldest drop first"},
		{"a person's edit stands", durationText(HumanEditWindow), fmt.Sprintf("an agent write to a field the person changed (400 `humanChange`; propose instead); the `humanEditWindow` preference sets it, 0 to %d whole days; a revert of the person's change is refused at any age", MaxHumanEditWindowDays)},
		{"every snapshot kept", durationText(SnapshotKeepAll), "local snapshots"},
		{"daily snapshots kept", durationText(SnapshotKeepDaily), "local snapshots older than that, the newest of each UTC day"},
		{"backup fresh for", durationText(BackupFreshFor), "a backup younger than this needs no automatic top-up"},
		{"backup lock left behind", durationText(BackupLockStaleAfter), "a backup lock nobody refreshed is reclaimed"},
		{"vault page", bytesText(MaxPageBytes), "a page file the board reads or writes (413 beyond; a larger file is listed as broken, never read)"},
		{"vault page list", fmt.Sprintf("1 to %d pages", MaxPageList), fmt.Sprintf("`limit` of `GET /api/vault` (%d when absent)", DefaultPageList)},
		{"messages on a page", fmt.Sprintf("%d, newest first", MaxPageMessages), "`backlinks.messages` of `GET /api/vault/pages/{id}`"},
	}
}

func entries(n int) string { return fmt.Sprintf("%d entries", n) }
func levels(n int) string  { return fmt.Sprintf("%d levels", n) }
func chars(n int) string   { return fmt.Sprintf("%d characters", n) }

// bytesText says a size in the largest binary unit that divides it.
func bytesText(n int) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// durationText says d in the largest unit that divides it, up to days.
func durationText(d time.Duration) string {
	switch {
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%d ms", d/time.Millisecond)
}
