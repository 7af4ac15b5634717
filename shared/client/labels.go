package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/opsboard/opsboard/shared/wire"
)

// Labels reads the active label catalog.
func (c *Client) Labels(ctx context.Context) ([]wire.LabelDef, error) {
	var out struct {
		Labels []wire.LabelDef `json:"labels"`
	}
	err := c.do(ctx, http.MethodGet, "/api/labels", nil, nil, &out)
	return out.Labels, err
}

// LabelInput is the body of POST /api/labels.
type LabelInput struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Color       string `json:"color,omitempty"`
}

// LabelPatch is the body of PATCH /api/labels/{id}.
type LabelPatch struct {
	Title       wire.Opt[string] `json:"title,omitzero"`
	Description wire.Opt[string] `json:"description,omitzero"`
	Color       wire.Opt[string] `json:"color,omitzero"`
}

// LabelAnswer is the board's answer to a label write.
type LabelAnswer struct {
	Label   wire.LabelDef `json:"label"`
	Version int64         `json:"version"`
}

// CreateLabel adds a custom label; the board mints its id from the title.
func (c *Client) CreateLabel(ctx context.Context, in LabelInput) (LabelAnswer, error) {
	var out LabelAnswer
	err := c.do(ctx, http.MethodPost, "/api/labels", nil, in, &out)
	return out, err
}

// PatchLabel edits a label.
func (c *Client) PatchLabel(ctx context.Context, id string, p LabelPatch) (LabelAnswer, error) {
	var out LabelAnswer
	err := c.do(ctx, http.MethodPatch, "/api/labels/"+seg(id), nil, p, &out)
	return out, err
}

// DeleteLabel removes a label; scrub also strips it from every record.
func (c *Client) DeleteLabel(ctx context.Context, id string, scrub bool) (int64, error) {
	var q url.Values
	if scrub {
		q = url.Values{"scrub": {"1"}}
	}
	var out versionOnly
	err := c.do(ctx, http.MethodDelete, "/api/labels/"+seg(id), q, nil, &out)
	return out.Version, err
}

// Bundle is an installable label bundle with its install state.
type Bundle struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	Kind           string `json:"kind"`
	Description    string `json:"description"`
	LabelCount     int    `json:"labelCount"`
	InstalledCount int    `json:"installedCount"`
	OwnedCount     int    `json:"ownedCount"`
	Installed      bool   `json:"installed"`
}

// Bundles lists the built-in label bundles.
func (c *Client) Bundles(ctx context.Context) ([]Bundle, error) {
	var out struct {
		Bundles []Bundle `json:"bundles"`
	}
	err := c.do(ctx, http.MethodGet, "/api/labels/bundles", nil, nil, &out)
	return out.Bundles, err
}

// BundleConflict is an id the catalog already held with another meaning.
type BundleConflict struct {
	ID       string        `json:"id"`
	Existing wire.LabelDef `json:"existing"`
	Incoming wire.LabelDef `json:"incoming"`
}

// InstallAnswer reports a bundle install.
type InstallAnswer struct {
	Bundle    string           `json:"bundle"`
	Added     []string         `json:"added"`
	Conflicts []BundleConflict `json:"conflicts"`
	Version   int64            `json:"version"`
}

// InstallBundle unions a bundle's labels into the catalog (idempotent).
func (c *Client) InstallBundle(ctx context.Context, id string) (InstallAnswer, error) {
	var out InstallAnswer
	err := c.do(ctx, http.MethodPost, "/api/labels/bundles", nil, map[string]string{"id": id}, &out)
	return out, err
}

// UninstallBundle removes the labels only this bundle owns; scrub strips
// them from cases and reminders too.
func (c *Client) UninstallBundle(ctx context.Context, id string, scrub bool) ([]string, int64, error) {
	var q url.Values
	if !scrub {
		q = url.Values{"scrub": {"0"}}
	}
	var out struct {
		Removed []string `json:"removed"`
		Version int64    `json:"version"`
	}
	err := c.do(ctx, http.MethodDelete, "/api/labels/bundles/"+seg(id), q, nil, &out)
	return out.Removed, out.Version, err
}
