package command

import (
	"context"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/reminders"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// findLimit bounds each list of the command bar's find, so an answer stays
// readable; the search view has the rest.
const findLimit = wire.MaxFindResults

func caseHref(id string) string { return "/board?case=" + id }

// Run carries out a parsed command as the actor, through the rule the
// matching gesture's route runs, and says what it did.
func Run(ctx context.Context, s *store.Store, actor wire.Actor, cmd Command) (wire.CommandReply, error) {
	// patch runs PATCH /api/cases/{id}'s operation; done is the message
	// with %s where the case id goes.
	patch := func(p wire.CasePatch, done string) (wire.CommandReply, error) {
		c, v, err := cases.Patch(ctx, s, actor, cmd.ID, p)
		if err != nil {
			return wire.CommandReply{}, err
		}
		return wire.CommandReply{Message: fmt.Sprintf(done, c.ID) + ": " + c.Title, Href: caseHref(c.ID), Version: v}, nil
	}
	switch cmd.Verb {
	case "help":
		return wire.CommandReply{Message: Help}, nil
	case "new":
		c, _, v, err := cases.Create(ctx, s, actor, wire.CaseCreate{Title: cmd.Text})
		if err != nil {
			return wire.CommandReply{}, err
		}
		return wire.CommandReply{Message: fmt.Sprintf("Created %s: %s", c.ID, c.Title), Href: caseHref(c.ID), Version: v}, nil
	case "move":
		return patch(wire.CasePatch{Status: wire.Some(string(cmd.Lane))}, "Moved %s to "+string(cmd.Lane))
	case "done":
		return patch(wire.CasePatch{Status: wire.Some(string(wire.LaneDone))}, "Moved %s to done")
	case "star":
		return patch(wire.CasePatch{Starred: wire.Some(true)}, "Starred %s")
	case "unstar":
		return patch(wire.CasePatch{Starred: wire.Some(false)}, "Unstarred %s")
	case "archive":
		return patch(wire.CasePatch{ArchivedAt: wire.Some("now")}, "Archived %s")
	case "restore":
		return patch(wire.CasePatch{ArchivedAt: wire.Null[string]()}, "Restored %s")
	case "note":
		n, _, v, err := cases.AddNote(ctx, s, actor, cmd.ID, cmd.Text)
		if err != nil {
			return wire.CommandReply{}, err
		}
		return wire.CommandReply{Message: fmt.Sprintf("Added note %s to %s", n.ID, cmd.ID), Href: caseHref(cmd.ID), Version: v}, nil
	case "remind":
		rem, _, v, err := reminders.Create(ctx, s, actor, wire.ReminderCreate{Title: cmd.Text, DueAt: cmd.Date})
		if err != nil {
			return wire.CommandReply{}, err
		}
		return wire.CommandReply{Message: fmt.Sprintf("Created %s: %s (due %s)", rem.ID, rem.Title, rem.DueAt), Href: "/reminders?id=" + rem.ID, Version: v}, nil
	case "find":
		res := search.ScanFieldsWith(s.Snapshot(), cmd.Text, false, s.BodyForSearch)
		res.Cases, res.Tasks = res.Cases[:min(len(res.Cases), findLimit)], res.Tasks[:min(len(res.Tasks), findLimit)]
		res.Messages, res.Reminders = res.Messages[:min(len(res.Messages), findLimit)], res.Reminders[:min(len(res.Reminders), findLimit)]
		res.Messages = s.WithBodies(res.Messages)
		n := len(res.Cases) + len(res.Tasks) + len(res.Messages) + len(res.Reminders)
		return wire.CommandReply{Message: fmt.Sprintf("%d matches for %q", n, cmd.Text), Results: &res}, nil
	}
	return wire.CommandReply{}, errs.BadRequest("unknown command %q.\n\n%s", cmd.Verb, Help)
}
