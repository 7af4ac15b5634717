package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/opsboard/opsboard/shared/wire"
)

// ManifestName is the manifest at the repository's root.
const ManifestName = "manifest.json"

// SnapshotDir is where snapshot files live in the repository.
const SnapshotDir = "snapshots"

// readManifest reads the clone's manifest; a missing one is empty.
func readManifest(clone string) (wire.BackupManifest, error) {
	m := wire.BackupManifest{Format: 1, Snapshots: []wire.BackupSnapshot{}}
	data, err := os.ReadFile(filepath.Join(clone, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("read %s: %w", ManifestName, err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return wire.BackupManifest{Format: 1, Snapshots: []wire.BackupSnapshot{}}, fmt.Errorf("%s does not parse: %w", ManifestName, err)
	}
	if m.Snapshots == nil {
		m.Snapshots = []wire.BackupSnapshot{}
	}
	return m, nil
}

// mergeManifests is the union of the entries of both, by file, oldest
// first; a then b wins for a file both name.
func mergeManifests(a, b wire.BackupManifest) wire.BackupManifest {
	out := wire.BackupManifest{Format: 1, Snapshots: []wire.BackupSnapshot{}}
	seen := map[string]int{}
	for _, list := range [][]wire.BackupSnapshot{a.Snapshots, b.Snapshots} {
		for _, e := range list {
			if i, ok := seen[e.File]; ok {
				out.Snapshots[i] = e
				continue
			}
			seen[e.File] = len(out.Snapshots)
			out.Snapshots = append(out.Snapshots, e)
		}
	}
	sort.SliceStable(out.Snapshots, func(i, j int) bool {
		if out.Snapshots[i].Created != out.Snapshots[j].Created {
			return out.Snapshots[i].Created < out.Snapshots[j].Created
		}
		return out.Snapshots[i].File < out.Snapshots[j].File
	})
	return out
}

func writeManifest(clone string, m wire.BackupManifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(clone, ManifestName), append(data, '\n'))
}

// newestFirst is the manifest's history for the status, newest first.
func newestFirst(m wire.BackupManifest) []wire.BackupSnapshot {
	out := append([]wire.BackupSnapshot{}, m.Snapshots...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Created != out[j].Created {
			return out[i].Created > out[j].Created
		}
		return out[i].File > out[j].File
	})
	return out
}

// NewestSnapshot is the newest snapshot the local copy's manifest records:
// what the freshness gate compares with. It reads one local file.
func NewestSnapshot(s Settings) (wire.BackupSnapshot, bool) {
	m, err := readManifest(s.Clone)
	if err != nil || len(m.Snapshots) == 0 {
		return wire.BackupSnapshot{}, false
	}
	return newestFirst(m)[0], true
}
