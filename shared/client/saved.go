package client

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// Prefs reads the board preferences (a JSON object).
func (c *Client) Prefs(ctx context.Context) (map[string]json.RawMessage, error) {
	var out wire.PrefsReply
	err := c.do(ctx, http.MethodGet, "/api/prefs", nil, nil, &out)
	return out.Prefs, err
}

// SetPrefs merges the given keys into the preferences and returns them.
func (c *Client) SetPrefs(ctx context.Context, prefs map[string]any) (map[string]json.RawMessage, int64, error) {
	var out wire.PrefsReply
	err := c.do(ctx, http.MethodPatch, "/api/prefs", nil, prefs, &out)
	return out.Prefs, out.Version, err
}

// Views lists the saved views.
func (c *Client) Views(ctx context.Context) ([]wire.View, error) {
	var out wire.ViewList
	err := c.do(ctx, http.MethodGet, "/api/views", nil, nil, &out)
	return out.Views, err
}

// SaveView creates a view, or updates the one with id when id is not empty
// (Created is then false).
func (c *Client) SaveView(ctx context.Context, id string, in wire.ViewInput) (wire.ViewSaved, error) {
	var out wire.ViewSaved
	if id == "" {
		err := c.create(ctx, "/api/views", in, &out)
		return out, err
	}
	err := c.do(ctx, http.MethodPatch, "/api/views/"+seg(id), nil, in, &out)
	return out, err
}

// DeleteView removes a saved view.
func (c *Client) DeleteView(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/views/"+seg(id), nil, nil, &out)
	return out.Version, err
}

// Templates lists the case templates.
func (c *Client) Templates(ctx context.Context) ([]wire.Template, error) {
	var out wire.TemplateList
	err := c.do(ctx, http.MethodGet, "/api/templates", nil, nil, &out)
	return out.Templates, err
}

// SaveTemplate creates a template, or updates the one with id when id is
// not empty (Created is then false).
func (c *Client) SaveTemplate(ctx context.Context, id string, in wire.TemplateInput) (wire.TemplateSaved, error) {
	var out wire.TemplateSaved
	if id == "" {
		err := c.create(ctx, "/api/templates", in, &out)
		return out, err
	}
	err := c.do(ctx, http.MethodPatch, "/api/templates/"+seg(id), nil, in, &out)
	return out, err
}

// DeleteTemplate removes a template.
func (c *Client) DeleteTemplate(ctx context.Context, id string) (int64, error) {
	var out wire.Deleted
	err := c.do(ctx, http.MethodDelete, "/api/templates/"+seg(id), nil, nil, &out)
	return out.Version, err
}
