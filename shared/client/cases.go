package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// CaseAnswer is the board's answer to a case write.
type CaseAnswer = wire.CaseReply

// CaseDetail is GET /api/cases/{id}.
type CaseDetail = wire.CaseDetail

// CaseFilter is the query of GET /api/cases; zero fields are not sent.
type CaseFilter struct {
	Status          string
	Domain          string
	Kind            string
	ParentID        *string // nil: any parent; "": top-level nodes only
	Label           string
	Starred         *bool
	IncludeArchived bool
}

func (f CaseFilter) query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("status", f.Status)
	set("domain", f.Domain)
	set("kind", f.Kind)
	set("label", f.Label)
	if f.ParentID != nil {
		q.Set("parentId", *f.ParentID)
	}
	if f.Starred != nil {
		q.Set("starred", strconv.FormatBool(*f.Starred))
	}
	if f.IncludeArchived {
		q.Set("includeArchived", "1")
	}
	return q
}

// Cases lists case nodes.
func (c *Client) Cases(ctx context.Context, f CaseFilter) ([]wire.Case, error) {
	var out wire.CaseList
	err := c.do(ctx, http.MethodGet, "/api/cases", f.query(), nil, &out)
	return out.Cases, err
}

// Case reads one node with its messages, manual actions, events and reminders.
func (c *Client) Case(ctx context.Context, id string) (CaseDetail, error) {
	var out CaseDetail
	err := c.do(ctx, http.MethodGet, "/api/cases/"+seg(id), nil, nil, &out)
	return out, err
}

// CreateCase adds a node. With in.Dedupe an exact match comes back with
// Existing set instead of a second record.
func (c *Client) CreateCase(ctx context.Context, in wire.CaseCreate) (CaseAnswer, error) {
	var out CaseAnswer
	err := c.create(ctx, "/api/cases", in, &out)
	return out, err
}

// PatchCase updates one node.
func (c *Client) PatchCase(ctx context.Context, id string, p wire.CasePatch) (CaseAnswer, error) {
	var out CaseAnswer
	err := c.do(ctx, http.MethodPatch, "/api/cases/"+seg(id), nil, p, &out)
	return out, err
}

// PatchCases applies one patch to many nodes, all or nothing.
func (c *Client) PatchCases(ctx context.Context, b wire.CaseBatch) ([]wire.Case, int64, error) {
	var out wire.CaseList
	err := c.do(ctx, http.MethodPatch, "/api/cases", nil, b, &out)
	return out.Cases, out.Version, err
}

// ArchiveCase soft-deletes a node to the Trash.
func (c *Client) ArchiveCase(ctx context.Context, id string) (CaseAnswer, error) {
	var out CaseAnswer
	err := c.do(ctx, http.MethodDelete, "/api/cases/"+seg(id), nil, nil, &out)
	return out, err
}

// DeleteCase removes a node for good.
func (c *Client) DeleteCase(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/cases/"+seg(id), url.Values{"hard": {"1"}}, nil, &out)
	return out.Version, err
}

// RestoreCase brings a node back from the Trash.
func (c *Client) RestoreCase(ctx context.Context, id string) (CaseAnswer, error) {
	var out CaseAnswer
	err := c.do(ctx, http.MethodPost, "/api/cases/"+seg(id)+"/restore", nil, nil, &out)
	return out, err
}

// MergeCase merges source into target; the answer is the target.
func (c *Client) MergeCase(ctx context.Context, sourceID, targetID string) (CaseAnswer, error) {
	var out CaseAnswer
	err := c.do(ctx, http.MethodPost, "/api/cases/"+seg(sourceID)+"/merge", nil, wire.CaseMerge{TargetID: targetID}, &out)
	return out, err
}

// Rollup is a container's progress over its non-archived leaf cases.
type Rollup = wire.Rollup

// TreeNode is a case node with its children and rollup.
type TreeNode = wire.TreeNode

// TreeFilter is the query of GET /api/tree.
type TreeFilter struct {
	RootID          string
	Domain          string
	IncludeArchived bool
}

// Tree reads the hierarchy.
func (c *Client) Tree(ctx context.Context, f TreeFilter) ([]*TreeNode, error) {
	q := url.Values{}
	if f.RootID != "" {
		q.Set("rootId", f.RootID)
	}
	if f.Domain != "" {
		q.Set("domain", f.Domain)
	}
	if f.IncludeArchived {
		q.Set("includeArchived", "1")
	}
	var out wire.TreeReply
	err := c.do(ctx, http.MethodGet, "/api/tree", q, nil, &out)
	return out.Tree, err
}

// AddTask appends a task to a case's checklist.
func (c *Client) AddTask(ctx context.Context, caseID string, in wire.TaskInput) (wire.TaskReply, error) {
	var out wire.TaskReply
	err := c.create(ctx, "/api/cases/"+seg(caseID)+"/tasks", in, &out)
	return out, err
}

// PatchTask updates a task (completed true or false completes or reopens it).
func (c *Client) PatchTask(ctx context.Context, caseID, taskID string, p wire.TaskPatch) (wire.TaskReply, error) {
	var out wire.TaskReply
	err := c.do(ctx, http.MethodPatch, "/api/cases/"+seg(caseID)+"/tasks/"+seg(taskID), nil, p, &out)
	return out, err
}

// DeleteTask removes a task.
func (c *Client) DeleteTask(ctx context.Context, caseID, taskID string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/cases/"+seg(caseID)+"/tasks/"+seg(taskID), nil, nil, &out)
	return out.Version, err
}

// AddNote adds a note to a case.
func (c *Client) AddNote(ctx context.Context, caseID, text string) (wire.NoteReply, error) {
	var out wire.NoteReply
	err := c.create(ctx, "/api/cases/"+seg(caseID)+"/notes", wire.NoteCreate{Text: text}, &out)
	return out, err
}

// ActivityEntry is one row of the Activity feed.
type ActivityEntry = wire.ActivityEntry

// ActivityFilter is the query of GET /api/activity.
type ActivityFilter struct {
	Since    string
	Actor    string
	Category string
	Limit    int
}

// Activity reads the Activity feed, newest first.
func (c *Client) Activity(ctx context.Context, f ActivityFilter) ([]ActivityEntry, error) {
	q := url.Values{}
	for k, v := range map[string]string{"since": f.Since, "actor": f.Actor, "category": f.Category} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var out wire.ActivityFeed
	err := c.do(ctx, http.MethodGet, "/api/activity", q, nil, &out)
	return out.Activity, err
}
