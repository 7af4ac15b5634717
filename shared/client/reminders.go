package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// ReminderAnswer is GET /api/reminders/{id}: the reminder with its linked
// emails, newest first.
type ReminderAnswer = wire.ReminderDetail

// ReminderFilter is the query of GET /api/reminders.
type ReminderFilter struct {
	Status string
	CaseID string
	Domain string
}

// Reminders lists reminders.
func (c *Client) Reminders(ctx context.Context, f ReminderFilter) ([]wire.Reminder, error) {
	q := url.Values{}
	for k, v := range map[string]string{"status": f.Status, "caseId": f.CaseID, "domain": f.Domain} {
		if v != "" {
			q.Set(k, v)
		}
	}
	var out wire.ReminderList
	err := c.do(ctx, http.MethodGet, "/api/reminders", q, nil, &out)
	return out.Reminders, err
}

// Reminder reads one reminder with its linked emails.
func (c *Client) Reminder(ctx context.Context, id string) (ReminderAnswer, error) {
	var out ReminderAnswer
	err := c.do(ctx, http.MethodGet, "/api/reminders/"+seg(id), nil, nil, &out)
	return out, err
}

// CreateReminder adds a reminder.
func (c *Client) CreateReminder(ctx context.Context, in wire.ReminderCreate) (wire.ReminderReply, error) {
	var out wire.ReminderReply
	err := c.create(ctx, "/api/reminders", in, &out)
	return out, err
}

// PatchReminder updates a reminder.
func (c *Client) PatchReminder(ctx context.Context, id string, p wire.ReminderPatch) (wire.ReminderReply, error) {
	var out wire.ReminderReply
	err := c.do(ctx, http.MethodPatch, "/api/reminders/"+seg(id), nil, p, &out)
	return out, err
}

// DeleteReminder removes a reminder; its emails stay, unlinked.
func (c *Client) DeleteReminder(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/reminders/"+seg(id), nil, nil, &out)
	return out.Version, err
}

// AddReminderMessage creates an email linked to a reminder.
func (c *Client) AddReminderMessage(ctx context.Context, id string, in wire.MessageInput) (wire.ReminderMessageReply, error) {
	var out wire.ReminderMessageReply
	err := c.create(ctx, "/api/reminders/"+seg(id)+"/messages", in, &out)
	return out, err
}
