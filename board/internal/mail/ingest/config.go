// Package ingest brings mail onto the board by one path: each message is
// deduplicated (by the board), screened by the guard, routed to the case or
// reminder already holding its thread or its sender, linked, and its
// source's watermark advanced once it is durable on the board. It talks to
// the board over its HTTP API as the system, like any other writer, and
// never reads mail text as a command.
package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/opsboard/opsboard/board/internal/mail"
	"github.com/opsboard/opsboard/board/internal/mail/emlfolder"
	"github.com/opsboard/opsboard/board/internal/mail/imapsource"
	"github.com/opsboard/opsboard/board/internal/mail/maildir"
	"github.com/opsboard/opsboard/board/internal/mail/mbox"
)

// ConfigName is the sources file, kept in the directory of the board's data.
const ConfigName = "ingest.json"

// StateName is the watermarks file, beside the sources file.
const StateName = "ingest-state.json"

// Config is ingest.json: the mail sources to read. It holds no secrets.
type Config struct {
	Sources []SourceConfig `json:"sources"`
}

// SourceConfig is one mailbox. Kind is maildir, mbox or eml (Path) or imap
// (Host, Port, User, Mailbox). Sent marks the person's own sent mail: every
// message from it is stored as outbound. Since (YYYY-MM-DD) leaves out mail
// dated before that day in the board's zone.
type SourceConfig struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Path    string `json:"path,omitempty"`
	Host    string `json:"host,omitempty"`
	Port    int    `json:"port,omitempty"`
	User    string `json:"user,omitempty"`
	Mailbox string `json:"mailbox,omitempty"`
	Sent    bool   `json:"sent,omitempty"`
	Since   string `json:"since,omitempty"`
}

// LoadConfig reads the sources file at path and checks every source.
func LoadConfig(path string) (Config, error) {
	var c Config
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, fmt.Errorf("no mail sources: %s does not exist (see the board README, \"Bring your mail in\")", path)
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i, s := range c.Sources {
		if err := s.check(); err != nil {
			return c, fmt.Errorf("%s: sources[%d]: %w", path, i, err)
		}
		if seen[s.Name] {
			return c, fmt.Errorf("%s: sources[%d]: name %q is used twice", path, i, s.Name)
		}
		seen[s.Name] = true
		if s.Path != "" && !filepath.IsAbs(s.Path) { // relative to the file, so the setup can move
			c.Sources[i].Path = filepath.Join(filepath.Dir(path), s.Path)
		}
	}
	return c, nil
}

func (s SourceConfig) check() error {
	if strings.TrimSpace(s.Name) == "" {
		return errors.New("field 'name' is required")
	}
	switch s.Kind {
	case "maildir", "mbox", "eml":
		if s.Path == "" {
			return fmt.Errorf("source %s: field 'path' is required for kind %s", s.Name, s.Kind)
		}
	case "imap":
		if s.Host == "" || s.User == "" {
			return fmt.Errorf("source %s: fields 'host' and 'user' are required for kind imap", s.Name)
		}
		if s.Port < 0 || s.Port > 65535 {
			return fmt.Errorf("source %s: field 'port' must be 1..65535", s.Name)
		}
	default:
		return fmt.Errorf("source %s: field 'kind' must be maildir, mbox, eml or imap, not %q", s.Name, s.Kind)
	}
	return nil
}

// PasswordEnv is the variable that holds an IMAP source's password:
// SVC_IMAP_PASSWORD_ and the name upper-cased, other characters than
// letters and digits as "_".
func PasswordEnv(name string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return "SVC_IMAP_PASSWORD_" + b.String()
}

// Open returns the reader of a source; an IMAP password comes from getenv,
// else the OS credential store (see Password).
func Open(s SourceConfig, getenv func(string) string) (mail.Source, error) {
	switch s.Kind {
	case "maildir":
		return maildir.New(s.Path), nil
	case "mbox":
		return mbox.New(s.Path), nil
	case "eml":
		return emlfolder.New(s.Path), nil
	case "imap":
		pw, err := Password(s.Name, getenv)
		if err != nil {
			return nil, err
		}
		port := s.Port
		if port == 0 {
			port = 993
		}
		return imapsource.New(imapsource.Options{Host: s.Host, Port: port, User: s.User, Password: pw, Mailbox: s.Mailbox}), nil
	}
	return nil, fmt.Errorf("source %s: unknown kind %q", s.Name, s.Kind)
}
