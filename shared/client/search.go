package client

import (
	"context"

	"github.com/opsboard/opsboard/shared/wire"
)

// SearchRequest is the body of POST /api/search.
type SearchRequest struct {
	Queries         []string `json:"queries,omitempty"`
	Q               string   `json:"q,omitempty"`
	K               int      `json:"k,omitempty"`
	Types           []string `json:"types,omitempty"`
	Domain          string   `json:"domain,omitempty"`
	Status          string   `json:"status,omitempty"`
	IncludeArchived *bool    `json:"includeArchived,omitempty"`
	Semantic        *bool    `json:"semantic,omitempty"`
}

// ReminderHit is the projection of a reminder in a search hit.
type ReminderHit struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Status string   `json:"status"`
	DueAt  string   `json:"dueAt,omitempty"`
	Domain string   `json:"domain,omitempty"`
	CaseID string   `json:"caseId,omitempty"`
	Labels []string `json:"labels,omitempty"`
	Detail string   `json:"detail,omitempty"`
}

// TaskHit is the projection of a task in a search hit.
type TaskHit struct {
	ID          string `json:"id"`
	CaseID      string `json:"caseId"`
	CaseTitle   string `json:"caseTitle"`
	Title       string `json:"title"`
	Detail      string `json:"detail,omitempty"`
	CompletedAt string `json:"completedAt,omitempty"`
	DueAt       string `json:"dueAt,omitempty"`
}

// MessageHit is the projection of a message in a search hit (no body).
type MessageHit struct {
	ID         string `json:"id"`
	Subject    string `json:"subject"`
	From       string `json:"from"`
	ReceivedAt string `json:"receivedAt,omitempty"`
	CaseID     string `json:"caseId,omitempty"`
	ReminderID string `json:"reminderId,omitempty"`
	Read       bool   `json:"read"`
	Outbound   bool   `json:"outbound,omitempty"`
	Preview    string `json:"preview,omitempty"`
}

// Hit is one ranked search result; one projection is set, by Type.
type Hit struct {
	Type     string       `json:"type"` // case, task, message or reminder
	ID       string       `json:"id"`
	CaseID   string       `json:"caseId"` // the owning case; "" when none (null on the wire)
	Score    float64      `json:"score"`
	Cosine   float64      `json:"cosine"`
	Why      []string     `json:"why"`
	Snippet  string       `json:"snippet"`
	Case     *wire.Case   `json:"case,omitempty"`
	Task     *TaskHit     `json:"task,omitempty"`
	Message  *MessageHit  `json:"message,omitempty"`
	Reminder *ReminderHit `json:"reminder,omitempty"`
}

// QueryHits are the hits of one query.
type QueryHits struct {
	Query string `json:"query"`
	Hits  []Hit  `json:"hits"`
}

// TaskRef is a task with its owning case.
type TaskRef struct {
	CaseID string    `json:"caseId"`
	Task   wire.Task `json:"task"`
}

// Merged holds every query's hits resolved to full records, best first.
type Merged struct {
	Cases     []wire.Case     `json:"cases"`
	Tasks     []TaskRef       `json:"tasks"`
	Messages  []wire.Message  `json:"messages"`
	Reminders []wire.Reminder `json:"reminders"`
}

// SearchAnswer is the envelope of POST /api/search.
type SearchAnswer struct {
	Engine        string      `json:"engine"`
	Embedder      string      `json:"embedder"`
	IndexedDigest string      `json:"indexedDigest"`
	TookMs        float64     `json:"tookMs"`
	Results       []QueryHits `json:"results"`
	Merged        Merged      `json:"merged"`
}

// Search ranks cases, tasks, messages and reminders against one or more
// queries. It is a read: no actor is involved, but the route is a POST.
func (c *Client) Search(ctx context.Context, r SearchRequest) (SearchAnswer, error) {
	var out SearchAnswer
	err := c.readPost(ctx, "/api/search", r, &out)
	return out, err
}
