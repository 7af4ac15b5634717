package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// ReminderAnswer is the board's answer about one reminder.
type ReminderAnswer struct {
	Reminder wire.Reminder  `json:"reminder"`
	Messages []wire.Message `json:"messages"` // GET only: linked emails, newest first
	Message  *wire.Message  `json:"message"`  // a linked-email create only
	Existing bool           `json:"existing"`
	Version  int64          `json:"version"`
}

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
	var out struct {
		Reminders []wire.Reminder `json:"reminders"`
	}
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
func (c *Client) CreateReminder(ctx context.Context, in wire.ReminderCreate) (ReminderAnswer, error) {
	var out ReminderAnswer
	err := c.do(ctx, http.MethodPost, "/api/reminders", nil, in, &out)
	return out, err
}

// PatchReminder updates a reminder.
func (c *Client) PatchReminder(ctx context.Context, id string, p wire.ReminderPatch) (ReminderAnswer, error) {
	var out ReminderAnswer
	err := c.do(ctx, http.MethodPatch, "/api/reminders/"+seg(id), nil, p, &out)
	return out, err
}

// DeleteReminder removes a reminder; its emails stay, unlinked.
func (c *Client) DeleteReminder(ctx context.Context, id string) (int64, error) {
	var out versionOnly
	err := c.do(ctx, http.MethodDelete, "/api/reminders/"+seg(id), nil, nil, &out)
	return out.Version, err
}

// AddReminderMessage creates an email linked to a reminder.
func (c *Client) AddReminderMessage(ctx context.Context, id string, in wire.MessageInput) (ReminderAnswer, error) {
	var out ReminderAnswer
	err := c.do(ctx, http.MethodPost, "/api/reminders/"+seg(id)+"/messages", nil, in, &out)
	return out, err
}
