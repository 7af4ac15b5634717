package backup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// state is backup-state.json: what the status reports without the network.
type state struct {
	LastRun *wire.BackupRun `json:"lastRun,omitempty"`
	Push    wire.BackupPush `json:"push"`
}

func readState(dir string) state {
	st := state{Push: wire.BackupPush{State: "never"}}
	data, err := os.ReadFile(filepath.Join(dir, StateName))
	if err != nil {
		return st
	}
	if json.Unmarshal(data, &st) != nil || st.Push.State == "" {
		st.Push = wire.BackupPush{State: "never"}
	}
	return st
}

func writeState(dir string, st state) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, StateName), append(data, '\n'))
}

// runLog is one run's log: each line goes to the caller's writer as it
// happens and is kept for backup-last.log.
type runLog struct {
	mu  sync.Mutex
	out interface{ Write([]byte) (int, error) }
	buf bytes.Buffer
	now func() time.Time
}

func (l *runLog) say(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	line = strings.ReplaceAll(line, "\n", " ")
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.buf, "%s %s\n", l.now().UTC().Format(time.RFC3339), line)
	if l.out != nil {
		fmt.Fprintln(l.out, line)
	}
}

func (l *runLog) save(dir string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return writeFileAtomic(filepath.Join(dir, LogName), l.buf.Bytes())
}

// logTail is the last n lines of the newest run's log.
func logTail(dir string, n int) []string {
	data, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		return []string{}
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return []string{}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
