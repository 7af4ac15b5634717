package wire

import "encoding/json"

// ViewInput is the body of POST /api/views and PATCH /api/views/{id}.
type ViewInput struct {
	Name    Opt[string]          `json:"name,omitzero"`
	Filters Opt[json.RawMessage] `json:"filters,omitzero"`
	Actor   Actor                `json:"actor,omitempty"`
	// Override lets an agent write through the person's change; the page
	// and a person's HTTP call may set it, the agent's tools never do.
	Override bool `json:"override,omitempty"`
}

// TemplateInput is the body of POST /api/templates (name required) and
// PATCH /api/templates/{id} (null clears a field).
type TemplateInput struct {
	Name    Opt[string]   `json:"name,omitzero"`
	Title   Opt[string]   `json:"title,omitzero"`
	Summary Opt[string]   `json:"summary,omitzero"`
	Status  Opt[string]   `json:"status,omitzero"`
	Domain  Opt[string]   `json:"domain,omitzero"`
	Kind    Opt[string]   `json:"kind,omitzero"`
	Labels  Opt[[]string] `json:"labels,omitzero"`
	Tags    Opt[[]string] `json:"tags,omitzero"`
	Tasks   Opt[[]string] `json:"tasks,omitzero"`
	Actor   Actor         `json:"actor,omitempty"`
	// Override lets an agent write through the person's change; the page
	// and a person's HTTP call may set it, the agent's tools never do.
	Override bool `json:"override,omitempty"`
}

// PrefsReply is GET /api/prefs and the answer of PATCH /api/prefs: the
// preferences object with its defaults filled in.
type PrefsReply struct {
	Prefs   map[string]json.RawMessage `json:"prefs"`
	Version int64                      `json:"version"`
}

// ViewList is GET /api/views.
type ViewList struct {
	Version int64  `json:"version"`
	Views   []View `json:"views"`
}

// ViewReply is GET /api/views/{id} and the answer of a view patch.
type ViewReply struct {
	Version int64 `json:"version"`
	View    View  `json:"view"`
}

// ViewSaved is the answer of POST /api/views.
type ViewSaved struct {
	Created bool  `json:"created"` // false: a view of that name was replaced
	Version int64 `json:"version"`
	View    View  `json:"view"`
}

// TemplateList is GET /api/templates.
type TemplateList struct {
	Templates []Template `json:"templates"`
	Version   int64      `json:"version"`
}

// TemplateReply is GET /api/templates/{id} and the answer of a template
// patch.
type TemplateReply struct {
	Template Template `json:"template"`
	Version  int64    `json:"version"`
}

// TemplateSaved is the answer of POST /api/templates.
type TemplateSaved struct {
	Created  bool     `json:"created"` // false: a template of that name was replaced
	Template Template `json:"template"`
	Version  int64    `json:"version"`
}
