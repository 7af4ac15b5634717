package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
)

// move renames the page file rel to newRel, never over another file. The
// page keeps its id, so case links, which hold ids, do not change. The
// caller holds writeMu.
func (v *Vault) move(rel, newRel string) error {
	from, to := v.abs(rel), v.abs(newRel)
	if strings.EqualFold(rel, newRel) {
		// Only the case changes: on a case-insensitive disk the new name
		// "exists" already, being the same file.
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("rename %s: %w", rel, err)
		}
	} else {
		if err := os.Link(from, to); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return errs.BadRequest("field 'title': a file %s is already in the vault", newRel)
			}
			return fmt.Errorf("rename %s: %w", rel, err)
		}
		if err := os.Remove(from); err != nil {
			return fmt.Errorf("rename %s: %w", rel, err)
		}
	}
	if err := syncDir(filepath.Dir(to)); err != nil {
		return err
	}
	e, err := v.read(newRel)
	if err != nil {
		return fmt.Errorf("rename %s: %w", rel, err)
	}
	v.mu.Lock()
	v.idx.remove(rel)
	v.idx.put(e)
	v.mu.Unlock()
	return nil
}

// onDisk reports whether something, page or not, is at rel.
func (v *Vault) onDisk(rel string) bool {
	_, err := os.Lstat(v.abs(rel))
	return err == nil
}

// linking is the pages other than self whose body links [[title]] and
// that the board may rewrite (a broken page keeps its stale link until the
// person fixes it).
func (v *Vault) linking(title, self string) []string {
	var out []string
	v.view(func(x *index, d *derived) {
		for _, p := range d.linkedBy[strings.ToLower(title)] {
			if e := x.pages[p]; writable(e) == nil && p != self && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	})
	slices.Sort(out)
	return out
}

// rewriteLinks turns [[from]] and [[from|text]] into links to `to` in
// every page but self, and returns the files it changed. The caller holds
// writeMu.
func (v *Vault) rewriteLinks(from, to, self string) ([]string, error) {
	var changed []string
	var problems []error
	for _, rel := range v.linking(from, self) {
		_, wrote, err := v.update(rel, func(p vaultpage.Page) (vaultpage.Fields, string, error) {
			body, _ := vaultpage.RewriteLinks(p.Body, from, to)
			return p.Fields, body, nil
		})
		if err != nil {
			v.cfg.Log.Warn("vault.links", "path", rel, "from", from, "to", to, "err", err)
			problems = append(problems, err)
			continue
		}
		if wrote {
			changed = append(changed, rel)
		}
	}
	return changed, errors.Join(problems...)
}
