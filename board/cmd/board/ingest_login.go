package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/opsboard/opsboard/board/internal/mail/ingest"
)

// ingestLoginCommand is `board ingest login SOURCE`: it reads the IMAP
// source's password (without echo from a terminal, else the first line of
// stdin) and keeps it in the OS credential store, where scheduled and
// manual runs find it when the source's environment variable is unset.
func ingestLoginCommand(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("board ingest login", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, finish, err := configFlags(fs)
	if err != nil {
		fmt.Fprintln(stderr, "board ingest login:", err)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	finish()
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: board ingest login SOURCE")
		return 2
	}
	name := fs.Arg(0)
	if err := checkLoginSource(filepath.Join(filepath.Dir(cfg.data), ingest.ConfigName), name); err != nil {
		fmt.Fprintln(stderr, "board ingest login:", err)
		return 1
	}
	pw, err := readPassword(stdin, stderr, name)
	if err == nil {
		err = ingest.StorePassword(name, pw)
	}
	if err != nil {
		fmt.Fprintln(stderr, "board ingest login:", err)
		return 1
	}
	fmt.Fprintf(stdout, "stored the password of %s in the OS credential store (service %s, account %s); %s still wins when set\n",
		name, ingest.KeyringService, name, ingest.PasswordEnv(name))
	return 0
}

// checkLoginSource refuses a name that is not an IMAP source of the sources
// file, naming the ones that are.
func checkLoginSource(path, name string) error {
	c, err := ingest.LoadConfig(path)
	if err != nil {
		return err
	}
	var known []string
	for _, s := range c.Sources {
		if s.Kind != "imap" {
			continue
		}
		if s.Name == name {
			return nil
		}
		known = append(known, s.Name)
	}
	if len(known) == 0 {
		return fmt.Errorf("no IMAP source named %q: %s has no IMAP source", name, path)
	}
	return fmt.Errorf("no IMAP source named %q in %s; the IMAP sources are: %s", name, path, strings.Join(known, ", "))
}

func readPassword(stdin *os.File, stderr io.Writer, name string) (string, error) {
	if term.IsTerminal(int(stdin.Fd())) {
		fmt.Fprintf(stderr, "password for %s: ", name)
		b, err := term.ReadPassword(int(stdin.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("read the password: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the password from stdin: %w", err)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("no password on stdin")
	}
	return line, nil
}
