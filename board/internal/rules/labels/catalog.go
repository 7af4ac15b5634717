package labels

import (
	"slices"

	"github.com/opsboard/opsboard/shared/wire"
)

// Conflict is a bundle label whose id is already in the catalog with another
// meaning. The existing definition is kept; both are reported so the human
// can rename one of them. It is the shape the install route answers with.
type Conflict = wire.BundleConflict

// Install unions b's labels into the catalog and records which of them b owns.
//
// New ids are appended after the existing ones, so the catalog keeps the order
// the human arranged. An id already present with the same title and
// description is the same concept and becomes co-owned by b; its existing
// color is kept, since the human may have recolored it. An id present with a
// different meaning keeps its existing definition, is reported as a Conflict
// and is not owned by b, so uninstalling b can never remove someone else's
// label. Ids b already owns stay owned even if the human has since edited
// them, which makes a re-install a no-op rather than a list of conflicts.
//
// The inputs are never modified: the returned catalog, definitions and
// provenance are fresh copies, because callers keep the old values as an
// immutable snapshot.
func Install(catalog []*wire.LabelDef, src wire.LabelSources, b Bundle) ([]*wire.LabelDef, wire.LabelSources, []Conflict) {
	out := cloneCatalog(catalog)
	byID := make(map[string]*wire.LabelDef, len(out))
	for _, l := range out {
		byID[l.ID] = l
	}

	var owned []string
	// Keep ownership of ids from an earlier install that are still in the
	// catalog, even if this version of the bundle no longer lists them, so an
	// uninstall still cleans up everything the bundle brought.
	for _, id := range src.Bundles[b.ID] {
		if _, ok := byID[id]; ok {
			owned = append(owned, id)
		}
	}
	ownedBefore := toSet(owned)

	var conflicts []Conflict
	for _, l := range b.Labels {
		have, ok := byID[l.ID]
		switch {
		case !ok:
			def := l
			out = append(out, &def)
			byID[def.ID] = &def
			owned = append(owned, l.ID)
		case ownedBefore[l.ID] || sameMeaning(*have, l):
			owned = append(owned, l.ID)
		default:
			conflicts = append(conflicts, Conflict{ID: l.ID, Existing: *have, Incoming: l})
		}
	}

	next := cloneSources(src)
	if next.Bundles == nil {
		next.Bundles = make(map[string][]string, 1)
	}
	slices.Sort(owned)
	next.Bundles[b.ID] = slices.Compact(owned)
	if next.Bundles[b.ID] == nil {
		// An installed bundle that owns nothing is still installed; an empty
		// list keeps that visible after a JSON round trip.
		next.Bundles[b.ID] = []string{}
	}
	return out, next, conflicts
}

// Uninstall forgets bundleID's provenance and removes from the catalog the ids
// it owned that no other installed bundle owns and that the human did not
// create by hand. It returns the removed ids, sorted, so the caller can strip
// them from cases.
//
// Uninstalling a bundle that is not installed changes nothing. The inputs are
// never modified.
func Uninstall(catalog []*wire.LabelDef, src wire.LabelSources, bundleID string) (cat []*wire.LabelDef, src2 wire.LabelSources, removed []string) {
	next := cloneSources(src)
	owned, ok := next.Bundles[bundleID]
	if !ok {
		return cloneCatalog(catalog), next, nil
	}
	delete(next.Bundles, bundleID)
	if len(next.Bundles) == 0 {
		// Same shape as provenance that never had a bundle installed.
		next.Bundles = nil
	}

	keep := toSet(next.Custom)
	for _, ids := range next.Bundles {
		for _, id := range ids {
			keep[id] = true
		}
	}
	drop := make(map[string]bool, len(owned))
	for _, id := range owned {
		if !keep[id] {
			drop[id] = true
		}
	}

	out := make([]*wire.LabelDef, 0, len(catalog))
	for _, l := range cloneCatalog(catalog) {
		if drop[l.ID] {
			removed = append(removed, l.ID)
			continue
		}
		out = append(out, l)
	}
	slices.Sort(removed)
	return out, next, slices.Compact(removed)
}

// Status is a bundle as the bundle picker shows it, the shape GET
// /api/labels/bundles answers with.
type Status = wire.BundleStatus

// Statuses reports, for each bundle in order, how many of its ids are in the
// catalog (whoever brought them) and how many provenance says it owns. The two
// differ when ids came from another bundle, were made by hand, or conflicted.
func Statuses(bundles []Bundle, catalog []*wire.LabelDef, src wire.LabelSources) []Status {
	inCatalog := make(map[string]bool, len(catalog))
	for _, l := range catalog {
		if l != nil {
			inCatalog[l.ID] = true
		}
	}
	out := make([]Status, 0, len(bundles))
	for _, b := range bundles {
		owned, installed := src.Bundles[b.ID]
		st := Status{
			ID:          b.ID,
			Title:       b.Title,
			Kind:        b.Kind,
			Description: b.Description,
			LabelCount:  len(b.Labels),
			OwnedCount:  len(owned),
			Installed:   installed,
		}
		for _, l := range b.Labels {
			if inCatalog[l.ID] {
				st.InstalledCount++
			}
		}
		out = append(out, st)
	}
	return out
}

// sameMeaning reports whether two definitions describe the same concept. Color
// is presentation, so it does not count.
func sameMeaning(a, b wire.LabelDef) bool {
	return a.Title == b.Title && a.Description == b.Description
}

// cloneCatalog copies the slice and every definition so the result shares no
// memory with a caller's snapshot. Nil entries carry no definition and are
// dropped.
func cloneCatalog(catalog []*wire.LabelDef) []*wire.LabelDef {
	out := make([]*wire.LabelDef, 0, len(catalog))
	for _, l := range catalog {
		if l == nil {
			continue
		}
		def := *l
		out = append(out, &def)
	}
	return out
}

// cloneSources deep-copies provenance; a nil map or slice stays nil.
func cloneSources(src wire.LabelSources) wire.LabelSources {
	out := wire.LabelSources{Custom: slices.Clone(src.Custom)}
	if src.Bundles != nil {
		out.Bundles = make(map[string][]string, len(src.Bundles))
		for id, ids := range src.Bundles {
			out.Bundles[id] = slices.Clone(ids)
		}
	}
	return out
}

func toSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}
