package wire

import "strings"

// Verb names what happened in an activity entry: "status_changed",
// "task_added". A stored log keeps these strings, and the page reads them, so
// a verb is never renamed.
type Verb string

// The verbs the board writes into activity logs and the Activity feed.
const (
	VerbCreated           Verb = "created"
	VerbImported          Verb = "imported"
	VerbArchived          Verb = "archived"
	VerbRestored          Verb = "restored"
	VerbTitleChanged      Verb = "title_changed"
	VerbStatusChanged     Verb = "status_changed"
	VerbDomainChanged     Verb = "domain_changed"
	VerbSummaryChanged    Verb = "summary_changed"
	VerbEtaChanged        Verb = "eta_changed"
	VerbDueChanged        Verb = "due_changed"
	VerbTagsChanged       Verb = "tags_changed"
	VerbVaultLinksChanged Verb = "vault_links_changed"
	VerbLabelsChanged     Verb = "labels_changed"
	VerbStarred           Verb = "starred"
	VerbUnstarred         Verb = "unstarred"
	VerbPositionChanged   Verb = "position_changed"
	VerbKindChanged       Verb = "kind_changed"
	VerbParentChanged     Verb = "parent_changed"
	VerbChildDetached     Verb = "child_detached"
	VerbChildAdopted      Verb = "child_adopted"
	VerbMergedInto        Verb = "merged_into"
	VerbMergedFrom        Verb = "merged_from"
	VerbTaskAdded         Verb = "task_added"
	VerbTaskUpdated       Verb = "task_updated"
	VerbTaskCompleted     Verb = "task_completed"
	VerbTaskReopened      Verb = "task_reopened"
	VerbTaskDeleted       Verb = "task_deleted"
	VerbNoteAdded         Verb = "note_added"
	VerbMessageLinked     Verb = "message_linked"
	VerbMessageUnlinked   Verb = "message_unlinked"
	VerbEventCreated      Verb = "event_created"
	VerbEventLinked       Verb = "event_linked"
	VerbEventUnlinked     Verb = "event_unlinked"
	VerbEventUpdated      Verb = "event_updated"
	VerbReminderCreated   Verb = "reminder_created"
	VerbReminderCompleted Verb = "reminder_completed"
	VerbReminderLinked    Verb = "reminder_linked"
	VerbReminderUnlinked  Verb = "reminder_unlinked"
	VerbReminderUpdated   Verb = "reminder_updated"
	VerbOverride          Verb = "override"
	VerbUndone            Verb = "undone"
	VerbProposalApproved  Verb = "proposal_approved"
	VerbIngestRun         Verb = "ingest_run"
	VerbBackupRun         Verb = "backup_run"
	VerbBackupFailed      Verb = "backup_failed"
)

// The categories of the Activity feed, by which the page filters it.
const (
	CategoryStatus    = "status"
	CategoryTasks     = "tasks"
	CategoryNotes     = "notes"
	CategoryMessages  = "messages"
	CategoryEvents    = "events"
	CategoryReminders = "reminders"
	CategoryHierarchy = "hierarchy"
	CategoryIngest    = "ingest"
	CategoryBackup    = "backup"
	CategoryLabels    = "labels"
	CategoryPriority  = "priority"
	CategoryLifecycle = "lifecycle"
	CategoryEdit      = "edit"
)

// ActivityCategories lists the categories in the order the page offers them.
var ActivityCategories = []string{
	CategoryStatus, CategoryTasks, CategoryNotes, CategoryMessages, CategoryEvents, CategoryReminders,
	CategoryHierarchy, CategoryIngest, CategoryBackup, CategoryLabels, CategoryPriority, CategoryLifecycle, CategoryEdit,
}

// VerbInfo is one verb and the category of the feed it falls in.
type VerbInfo struct {
	Verb     Verb
	Category string
}

// Verbs lists every verb the board writes, with its category: the one
// table the board's feed and the page's words both derive from.
var Verbs = []VerbInfo{
	{VerbCreated, CategoryLifecycle},
	{VerbImported, CategoryEdit},
	{VerbArchived, CategoryLifecycle},
	{VerbRestored, CategoryLifecycle},
	{VerbTitleChanged, CategoryEdit},
	{VerbStatusChanged, CategoryStatus},
	{VerbDomainChanged, CategoryEdit},
	{VerbSummaryChanged, CategoryEdit},
	{VerbEtaChanged, CategoryEdit},
	{VerbDueChanged, CategoryEdit},
	{VerbTagsChanged, CategoryEdit},
	{VerbVaultLinksChanged, CategoryEdit},
	{VerbLabelsChanged, CategoryLabels},
	{VerbStarred, CategoryPriority},
	{VerbUnstarred, CategoryPriority},
	{VerbPositionChanged, CategoryEdit},
	{VerbKindChanged, CategoryHierarchy},
	{VerbParentChanged, CategoryHierarchy},
	{VerbChildDetached, CategoryHierarchy},
	{VerbChildAdopted, CategoryHierarchy}, // no longer written; older logs hold it
	{VerbMergedInto, CategoryHierarchy},
	{VerbMergedFrom, CategoryHierarchy},
	{VerbTaskAdded, CategoryTasks},
	{VerbTaskUpdated, CategoryTasks},
	{VerbTaskCompleted, CategoryTasks},
	{VerbTaskReopened, CategoryTasks},
	{VerbTaskDeleted, CategoryTasks},
	{VerbNoteAdded, CategoryNotes},
	{VerbMessageLinked, CategoryMessages},
	{VerbMessageUnlinked, CategoryMessages},
	{VerbEventCreated, CategoryEvents},
	{VerbEventLinked, CategoryEvents},
	{VerbEventUnlinked, CategoryEvents},
	{VerbEventUpdated, CategoryEvents},
	{VerbReminderCreated, CategoryReminders},
	{VerbReminderCompleted, CategoryReminders},
	{VerbReminderLinked, CategoryReminders},
	{VerbReminderUnlinked, CategoryReminders},
	{VerbReminderUpdated, CategoryReminders},
	{VerbOverride, CategoryEdit},
	{VerbUndone, CategoryEdit},
	{VerbProposalApproved, CategoryEdit},
	{VerbIngestRun, CategoryIngest},
	{VerbBackupRun, CategoryBackup},
	{VerbBackupFailed, CategoryBackup},
}

// VerbFamilies are the categories of verbs not in Verbs, by their prefix: a
// log written by another version of the board may hold such a verb, and it
// still files with its kin.
var VerbFamilies = []struct {
	Prefix, Category string
}{
	{"task_", CategoryTasks},
	{"note_", CategoryNotes},
	{"message_", CategoryMessages},
	{"event_", CategoryEvents},
	{"reminder_", CategoryReminders},
	{"merged_", CategoryHierarchy},
	{"ingest_", CategoryIngest},
	{"backup_", CategoryBackup},
}

var verbCategory = func() map[Verb]string {
	m := make(map[Verb]string, len(Verbs))
	for _, v := range Verbs {
		m[v.Verb] = v.Category
	}
	return m
}()

// Category is the feed category of v: its row of Verbs, else its family,
// else edit.
func (v Verb) Category() string {
	if c, ok := verbCategory[v]; ok {
		return c
	}
	for _, f := range VerbFamilies {
		if strings.HasPrefix(string(v), f.Prefix) {
			return f.Category
		}
	}
	return CategoryEdit
}
