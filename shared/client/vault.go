package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/opsboard/opsboard/shared/wire"
)

// PageFilter narrows GET /api/vault. Zero values mean no filter; Limit 0
// is the board's default page size.
type PageFilter struct {
	Type   wire.PageType
	Q      string
	Cursor string
	Limit  int
}

func (f PageFilter) query() url.Values {
	q := url.Values{}
	if f.Type != "" {
		q.Set("type", string(f.Type))
	}
	if f.Q != "" {
		q.Set("q", f.Q)
	}
	if f.Cursor != "" {
		q.Set("cursor", f.Cursor)
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

// PageAnswer is the answer of a page write: the page (Existing when a
// create found it already there), or, for an agent create from mail that
// was not screened clean, the proposal filed for the person instead.
type PageAnswer struct {
	Page     wire.Page      `json:"page"`
	Existing bool           `json:"existing,omitempty"`
	DryRun   bool           `json:"dryRun,omitempty"`
	Changes  []string       `json:"changes,omitempty"`
	Proposal *wire.Proposal `json:"proposal,omitempty"`
	Version  int64          `json:"version"`
}

// Pages lists one page of vault pages by title.
func (c *Client) Pages(ctx context.Context, f PageFilter) (wire.PageList, error) {
	var out wire.PageList
	err := c.do(ctx, http.MethodGet, "/api/vault", f.query(), nil, &out)
	return out, err
}

// Page reads one page by id (V-<n>) or by its path in the vault.
func (c *Client) Page(ctx context.Context, idOrPath string) (wire.PageReply, error) {
	var out wire.PageReply
	err := c.do(ctx, http.MethodGet, "/api/vault/pages/"+seg(idOrPath), nil, nil, &out)
	return out, err
}

// CreatePage adds a page, or answers the one that already holds the title,
// an alias or an email.
func (c *Client) CreatePage(ctx context.Context, in wire.PageCreate) (PageAnswer, error) {
	var out PageAnswer
	err := c.create(ctx, "/api/vault/pages", in, &out)
	return out, err
}

// PatchPage changes a page's fields, renames it, or appends a timeline line.
func (c *Client) PatchPage(ctx context.Context, idOrPath string, p wire.PagePatch) (PageAnswer, error) {
	var out PageAnswer
	err := c.do(ctx, http.MethodPatch, "/api/vault/pages/"+seg(idOrPath), nil, p, &out)
	return out, err
}

// MergePage folds a page into another, leaving a stub behind.
func (c *Client) MergePage(ctx context.Context, idOrPath string, m wire.PageMerge) (PageAnswer, error) {
	var out PageAnswer
	err := c.do(ctx, http.MethodPost, "/api/vault/pages/"+seg(idOrPath)+"/merge", nil, m, &out)
	return out, err
}

// UnresolvedSenders lists the senders no page holds.
func (c *Client) UnresolvedSenders(ctx context.Context) (wire.UnresolvedSenders, error) {
	var out wire.UnresolvedSenders
	err := c.do(ctx, http.MethodGet, "/api/vault/unresolved", nil, nil, &out)
	return out, err
}
