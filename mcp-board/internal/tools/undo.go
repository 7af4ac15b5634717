package tools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// undoAgentWrites undoes the agent's own writes and nothing else: it never
// asks the board to undo a later write with them (through), so when a
// person (or anyone) has written one of those records since, the board
// refuses with its undo conflict and the person's change stands. Undoing
// a person's writes stays a proposal (propose, verb undo).
func undoAgentWrites(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("undo_agent_writes",
		mcp.WithDescription("Undo your own writes: all since a time, or one by version. Refused if someone wrote those records since; a person's writes: propose verb undo."),
		optional("since", "RFC 3339 time: your writes after it."),
		mcp.WithInteger("version", mcp.Description("One write of yours, as its answer or Activity gave it.")),
		mcp.WithBoolean("dryRun", mcp.Description("List what would be undone; change nothing.")),
		// Undoing the same span again skips what the first call undid.
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		since, version, dry := a.Str("since"), int64(a.IntOr("version", 0)), a.BoolOr("dryRun", false)
		if a.Err() != nil {
			return "", a.Err()
		}
		if (since == "") == (version == 0) {
			return "", errors.New("pass since (your writes after that time) or version (one write of yours), one of them")
		}
		req := wire.UndoRequest{WritesBy: wire.ActorAgent, Since: since, DryRun: dry}
		if version != 0 {
			req = wire.UndoRequest{Version: version, DryRun: dry}
			if err := checkOwnWrite(ctx, c, version); err != nil {
				return "", err
			}
		}
		ans, err := c.Undo(ctx, req)
		if err != nil {
			return "", undoRefusal(err)
		}
		return undoAnswer(ans), nil
	})
}

// checkOwnWrite refuses a version that is not the agent's write, by a dry
// run that changes nothing: the board's undo by version undoes anyone's.
func checkOwnWrite(ctx context.Context, c *client.Client, version int64) error {
	plan, err := c.Undo(ctx, wire.UndoRequest{Version: version, DryRun: true})
	if err != nil {
		return undoRefusal(err)
	}
	for _, w := range plan.Undone {
		if w.Actor != wire.ActorAgent {
			return fmt.Errorf("write %d is the %s's, not yours: its change stands; propose verb undo to ask the person", w.Version, w.Actor)
		}
	}
	return nil
}

// undoRefusal keeps the board's words and says what the agent may do,
// since this tool never undoes the later writes with them.
func undoRefusal(err error) error {
	var be *client.BoardError
	if errors.As(err, &be) && be.Status == http.StatusBadRequest && strings.HasPrefix(be.Message, "cannot undo") {
		return fmt.Errorf("%w. Nothing was undone. If that later write is the person's, their change stands: add a note, or propose verb undo for them to decide", err)
	}
	return err
}

func undoAnswer(ans wire.UndoReply) string {
	if len(ans.Undone) == 0 {
		return "Nothing to undo."
	}
	var b strings.Builder
	verb := "Undone"
	if ans.DryRun {
		verb = "Would undo (dry run, nothing changed)"
	}
	fmt.Fprintf(&b, "%s: %d %s (board version %d):\n", verb, len(ans.Undone), pluralOf(len(ans.Undone), "write", "writes"), ans.Version)
	for _, w := range ans.Undone {
		recs := make([]string, 0, len(w.Records))
		for _, r := range w.Records {
			recs = append(recs, r.Kind+" "+r.ID)
		}
		fmt.Fprintf(&b, "- version %d at %s: %s\n", w.Version, w.At, strings.Join(recs, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}
