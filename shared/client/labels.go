package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// Labels reads the active label catalog.
func (c *Client) Labels(ctx context.Context) ([]wire.LabelDef, error) {
	var out wire.LabelList
	err := c.do(ctx, http.MethodGet, "/api/labels", nil, nil, &out)
	return out.Labels, err
}

// CreateLabel adds a custom label; the board mints its id from the title.
func (c *Client) CreateLabel(ctx context.Context, in wire.LabelCreate) (wire.LabelReply, error) {
	var out wire.LabelReply
	err := c.create(ctx, "/api/labels", in, &out)
	return out, err
}

// PatchLabel edits a label.
func (c *Client) PatchLabel(ctx context.Context, id string, p wire.LabelPatch) (wire.LabelReply, error) {
	var out wire.LabelReply
	err := c.do(ctx, http.MethodPatch, "/api/labels/"+seg(id), nil, p, &out)
	return out, err
}

// DeleteLabel removes a label; scrub also strips it from every record.
func (c *Client) DeleteLabel(ctx context.Context, id string, scrub bool) (int64, error) {
	var q url.Values
	if scrub {
		q = url.Values{"scrub": {"1"}}
	}
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/labels/"+seg(id), q, nil, &out)
	return out.Version, err
}

// Bundles lists the built-in label bundles.
func (c *Client) Bundles(ctx context.Context) ([]wire.BundleStatus, error) {
	var out wire.BundleList
	err := c.do(ctx, http.MethodGet, "/api/labels/bundles", nil, nil, &out)
	return out.Bundles, err
}

// InstallBundle unions a bundle's labels into the catalog (idempotent).
func (c *Client) InstallBundle(ctx context.Context, id string) (wire.BundleInstalled, error) {
	var out wire.BundleInstalled
	err := c.do(ctx, http.MethodPost, "/api/labels/bundles", nil, wire.BundleInstall{ID: id}, &out)
	return out, err
}

// UninstallBundle removes the labels only this bundle owns; scrub strips
// them from cases and reminders too.
func (c *Client) UninstallBundle(ctx context.Context, id string, scrub bool) ([]string, int64, error) {
	var q url.Values
	if !scrub {
		q = url.Values{"scrub": {"0"}}
	}
	var out wire.BundleUninstalled
	err := c.do(ctx, http.MethodDelete, "/api/labels/bundles/"+seg(id), q, nil, &out)
	return out.Removed, out.Version, err
}
