package client

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/opsboard/opsboard/shared/wire"
)

// Prefs reads the board preferences (a JSON object).
func (c *Client) Prefs(ctx context.Context) (json.RawMessage, error) {
	var out struct {
		Prefs json.RawMessage `json:"prefs"`
	}
	err := c.do(ctx, http.MethodGet, "/api/prefs", nil, nil, &out)
	return out.Prefs, err
}

// SetPrefs merges the given keys into the preferences and returns them.
func (c *Client) SetPrefs(ctx context.Context, prefs map[string]any) (json.RawMessage, int64, error) {
	var out struct {
		Prefs   json.RawMessage `json:"prefs"`
		Version int64           `json:"version"`
	}
	err := c.do(ctx, http.MethodPatch, "/api/prefs", nil, prefs, &out)
	return out.Prefs, out.Version, err
}

// Views lists the saved views.
func (c *Client) Views(ctx context.Context) ([]wire.View, error) {
	var out struct {
		Views []wire.View `json:"views"`
	}
	err := c.do(ctx, http.MethodGet, "/api/views", nil, nil, &out)
	return out.Views, err
}

// ViewAnswer is the board's answer to a view write.
type ViewAnswer struct {
	View    wire.View `json:"view"`
	Created bool      `json:"created"` // false: a view of that name was replaced
	Version int64     `json:"version"`
}

// SaveView creates a view, or updates the one with id when id is not empty.
func (c *Client) SaveView(ctx context.Context, id string, in wire.ViewInput) (ViewAnswer, error) {
	var out ViewAnswer
	if id == "" {
		err := c.do(ctx, http.MethodPost, "/api/views", nil, in, &out)
		return out, err
	}
	err := c.do(ctx, http.MethodPatch, "/api/views/"+seg(id), nil, in, &out)
	return out, err
}

// DeleteView removes a saved view.
func (c *Client) DeleteView(ctx context.Context, id string) (int64, error) {
	var out versionOnly
	err := c.do(ctx, http.MethodDelete, "/api/views/"+seg(id), nil, nil, &out)
	return out.Version, err
}

// Templates lists the case templates.
func (c *Client) Templates(ctx context.Context) ([]wire.Template, error) {
	var out struct {
		Templates []wire.Template `json:"templates"`
	}
	err := c.do(ctx, http.MethodGet, "/api/templates", nil, nil, &out)
	return out.Templates, err
}

// TemplateAnswer is the board's answer to a template write.
type TemplateAnswer struct {
	Template wire.Template `json:"template"`
	Created  bool          `json:"created"` // false: a template of that name was replaced
	Version  int64         `json:"version"`
}

// SaveTemplate creates a template, or updates the one with id when id is
// not empty.
func (c *Client) SaveTemplate(ctx context.Context, id string, in wire.TemplateInput) (TemplateAnswer, error) {
	var out TemplateAnswer
	if id == "" {
		err := c.do(ctx, http.MethodPost, "/api/templates", nil, in, &out)
		return out, err
	}
	err := c.do(ctx, http.MethodPatch, "/api/templates/"+seg(id), nil, in, &out)
	return out, err
}

// DeleteTemplate removes a template.
func (c *Client) DeleteTemplate(ctx context.Context, id string) (int64, error) {
	var out versionOnly
	err := c.do(ctx, http.MethodDelete, "/api/templates/"+seg(id), nil, nil, &out)
	return out.Version, err
}
