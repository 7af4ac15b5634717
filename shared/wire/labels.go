package wire

// LabelCreate is the body of POST /api/labels; the board mints the id from
// the title.
type LabelCreate struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Color       string `json:"color,omitempty"`
	Actor       Actor  `json:"actor,omitempty"`
}

// LabelPatch is the body of PATCH /api/labels/{id}.
type LabelPatch struct {
	Title       Opt[string] `json:"title,omitzero"`
	Description Opt[string] `json:"description,omitzero"`
	Color       Opt[string] `json:"color,omitzero"`
	Actor       Actor       `json:"actor,omitempty"`
	// Override lets an agent write through the person's change; the page
	// and a person's HTTP call may set it, the agent's tools never do.
	Override bool `json:"override,omitempty"`
}

// LabelList is GET /api/labels: the active catalog.
type LabelList struct {
	Labels  []LabelDef `json:"labels"`
	Version int64      `json:"version"`
}

// LabelReply is the answer of a label create or patch.
type LabelReply struct {
	Label   LabelDef `json:"label"`
	Version int64    `json:"version"`
}

// BundleStatus is a built-in label bundle as the bundle picker shows it:
// how many of its ids are in the catalog (whoever brought them) and how
// many provenance says it owns.
type BundleStatus struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	Kind           string `json:"kind"`
	Description    string `json:"description"`
	LabelCount     int    `json:"labelCount"`
	InstalledCount int    `json:"installedCount"`
	OwnedCount     int    `json:"ownedCount"`
	Installed      bool   `json:"installed"`
}

// BundleList is GET /api/labels/bundles.
type BundleList struct {
	Bundles []BundleStatus `json:"bundles"`
	Version int64          `json:"version"`
}

// BundleInstall is the body of POST /api/labels/bundles.
type BundleInstall struct {
	ID    string `json:"id"`
	Actor Actor  `json:"actor,omitempty"`
}

// BundleConflict is a bundle label whose id is already in the catalog with
// another meaning. The existing definition is kept; both are reported so
// the human can rename one of them.
type BundleConflict struct {
	ID       string   `json:"id"`
	Existing LabelDef `json:"existing"`
	Incoming LabelDef `json:"incoming"`
}

// BundleInstalled is the answer of POST /api/labels/bundles: the ids added
// to the catalog and those that conflicted.
type BundleInstalled struct {
	Added     []string         `json:"added"`
	Bundle    string           `json:"bundle"`
	Conflicts []BundleConflict `json:"conflicts"`
	Version   int64            `json:"version"`
}

// BundleUninstalled is the answer of DELETE /api/labels/bundles/{id}: the
// ids removed from the catalog.
type BundleUninstalled struct {
	Removed []string `json:"removed"`
	Version int64    `json:"version"`
}
