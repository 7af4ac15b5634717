package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// feedLimit is the most rows the Activity feed answers in one call.
const feedLimit = 5000

// whatChanged is how an agent that wakes up learns what the person (and
// anyone else) did since its last run, without reading every record.
func whatChanged(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("what_changed",
		mcp.WithDescription("Writes since a version or a time (default: 24 h), by record and by actor."),
		mcp.WithInteger("sinceVersion", mcp.Description("A version a previous answer gave.")),
		optional("since", "ISO time."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		since := a.Str("since")
		version := int64(a.IntOr("sinceVersion", -1))
		if a.Err() != nil {
			return "", a.Err()
		}
		if version >= 0 && since != "" {
			return "", fmt.Errorf("pass sinceVersion or since, not both")
		}
		if version >= 0 {
			return changesSinceVersion(ctx, c, version)
		}
		if since == "" {
			since = time.Now().UTC().Add(-24 * time.Hour).Format(time.RFC3339)
		}
		cs, err := changesSinceTime(ctx, c, since)
		if err != nil {
			return "", err
		}
		return render.Changes(cs), nil
	})
}

// changesSinceVersion reads the ring from that version and the feed's rows
// of the same writes. When the ring does not reach back so far (the board
// restarted, or the version is older than its last writes), the feed's last
// 24 hours stand in, said so.
func changesSinceVersion(ctx context.Context, c *client.Client, since int64) (string, error) {
	ch, err := c.Changes(ctx, since)
	if err != nil {
		return "", err
	}
	if ch.Reset {
		cs, err := changesSinceTime(ctx, c, time.Now().UTC().Add(-24*time.Hour).Format(time.RFC3339))
		if err != nil {
			return "", err
		}
		cs.Note = fmt.Sprintf("The board no longer remembers the writes after version %d (it restarted, or they are too many): this is the Activity feed's last 24 hours.", since)
		return render.Changes(cs), nil
	}
	rows, err := c.Activity(ctx, client.ActivityFilter{Limit: feedLimit})
	if err != nil {
		return "", err
	}
	var mine []wire.ActivityEntry
	for _, r := range rows {
		if r.Version > since {
			mine = append(mine, r)
		}
	}
	cs := render.ChangeSet{Since: fmt.Sprintf("version %d", since), Version: ch.Version, Rows: mine}
	addRing(&cs, ch)
	return render.Changes(cs), nil
}

// changesSinceTime reads the feed's rows since a time, then the ring from
// the oldest of those writes it still holds, for the records no row names.
func changesSinceTime(ctx context.Context, c *client.Client, since string) (render.ChangeSet, error) {
	rows, err := c.Activity(ctx, client.ActivityFilter{Since: since, Limit: feedLimit})
	if err != nil {
		return render.ChangeSet{}, err
	}
	cs := render.ChangeSet{Since: since, Rows: rows}
	if len(rows) == feedLimit {
		cs.Note = fmt.Sprintf("Only the newest %d rows: pass a later since.", feedLimit)
	}
	oldest := int64(0)
	for _, r := range rows {
		if r.Version > 0 && (oldest == 0 || r.Version < oldest) {
			oldest = r.Version
		}
	}
	from := oldest - 1
	if oldest == 0 {
		from = -1
	}
	ch, err := c.Changes(ctx, max(from, 0))
	if err != nil {
		return cs, err
	}
	cs.Version = ch.Version
	if from >= 0 && !ch.Reset {
		addRing(&cs, ch)
	}
	return cs, nil
}

// addRing adds the ring's records that no feed row names, and every
// record's title for the rows that carry none.
func addRing(cs *render.ChangeSet, ch wire.Changes) {
	named := map[string]bool{}
	for _, r := range cs.Rows {
		for _, id := range []string{r.CaseID, r.ReminderID, r.EventID} {
			named[id] = id != ""
		}
	}
	cs.Titles = map[string]string{}
	for _, r := range ch.Changed {
		cs.Titles[r.ID] = render.RecordTitle(r.Record)
		if !named[r.ID] && r.Kind != wire.KindIngestRunRecord {
			cs.Others = append(cs.Others, r)
		}
	}
	cs.Removed = ch.Removed
}
