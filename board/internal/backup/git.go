package backup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitRepo runs the git binary in the clone, so the person's own SSH keys
// and credential helpers reach the repository. It never prompts.
type gitRepo struct {
	bin string
	dir string
	ssh string // GIT_SSH_COMMAND to set; "" leaves the person's own
}

// Author of backup commits: set explicitly, so a machine without a git
// identity can commit.
const (
	authorName  = "opsboard backup"
	authorEmail = "backup@opsboard.invalid"
)

func (g gitRepo) run(ctx context.Context, args ...string) (string, error) {
	// Snapshots are encrypted, so compressing or delta-searching them is
	// wasted work: store them as they are.
	full := append([]string{"-c", "user.name=" + authorName, "-c", "user.email=" + authorEmail,
		"-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null",
		"-c", "core.compression=0", "-c", "pack.compression=0", "-c", "core.bigFileThreshold=1m"}, args...)
	cmd := exec.CommandContext(ctx, g.bin, full...)
	if g.dir != "" {
		cmd.Dir = g.dir
	}
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
	if g.ssh != "" {
		cmd.Env = append(cmd.Env, "GIT_SSH_COMMAND="+g.ssh)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return out.String(), fmt.Errorf("git %s: %v: %s", args[0], err, lastLines(msg, 4))
	}
	return out.String(), nil
}

// batchSSH is the ssh command that keeps ssh from asking at a terminal (a
// run in the background must fail rather than wait for a person), or ""
// when the person names their own (GIT_SSH_COMMAND, GIT_SSH or
// core.sshCommand, say for the key of the backup host): theirs is used.
func batchSSH(ctx context.Context, bin, dir string) string {
	if os.Getenv("GIT_SSH_COMMAND") != "" || os.Getenv("GIT_SSH") != "" {
		return ""
	}
	cmd := exec.CommandContext(ctx, bin, "config", "--get", "core.sshCommand")
	if !dirExists(dir) {
		dir = filepath.Dir(dir) // before the first clone: the data directory
	}
	if dirExists(dir) {
		cmd.Dir = dir
	}
	if out, err := cmd.Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		return ""
	}
	return "ssh -o BatchMode=yes"
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// syncClone makes the clone a copy of repo, as fresh as the network allows:
// clone on the first run (an empty repository clones too); else point the
// remote at repo, fetch and merge. A repository out of reach is no error
// on the first run either: the clone starts empty, the run commits there,
// and the push that fails says so. fetched reports whether the remote was
// reached. With clean, uncommitted changes to tracked files are dropped
// before the merge (a run cut short may leave manifest.json half done; the
// caller has read it and merges its entries back).
func syncClone(ctx context.Context, s Settings, repo string, clean bool, say func(string, ...any)) (g gitRepo, branch string, fetched bool, err error) {
	top := gitRepo{bin: s.git(), ssh: batchSSH(ctx, s.git(), s.Clone)}
	g = top
	g.dir = s.Clone
	if _, statErr := os.Stat(filepath.Join(s.Clone, ".git")); statErr != nil {
		if err := os.MkdirAll(filepath.Dir(s.Clone), 0o700); err != nil {
			return g, "", false, fmt.Errorf("create %s: %w", filepath.Dir(s.Clone), err)
		}
		if _, cerr := top.run(ctx, "clone", "--quiet", "--", repo, s.Clone); cerr != nil {
			say("clone %s: %v; starting an empty local copy", repo, cerr)
			os.RemoveAll(s.Clone)
			if _, err := top.run(ctx, "init", "--quiet", "--", s.Clone); err != nil {
				return g, "", false, err
			}
			if _, err := g.run(ctx, "remote", "add", "--", "origin", repo); err != nil {
				return g, "", false, err
			}
		} else {
			fetched = true
			say("cloned %s", repo)
		}
	} else {
		url, _ := g.run(ctx, "remote", "get-url", "origin")
		switch url = strings.TrimSpace(url); {
		case url == "":
			if _, err := g.run(ctx, "remote", "add", "--", "origin", repo); err != nil {
				return g, "", false, err
			}
		case url != repo:
			say("the local copy pointed at %s; now %s", url, repo)
			if _, err := g.run(ctx, "remote", "set-url", "--", "origin", repo); err != nil {
				return g, "", false, err
			}
		}
		if _, ferr := g.run(ctx, "fetch", "--quiet", "origin"); ferr != nil {
			say("fetch: %v", ferr)
		} else {
			fetched = true
		}
	}
	if _, err := g.run(ctx, "rev-parse", "--quiet", "--verify", "HEAD"); err != nil {
		// No commit yet: name the branch, whatever git's default is.
		if _, err := g.run(ctx, "symbolic-ref", "HEAD", "refs/heads/main"); err != nil {
			return g, "", fetched, err
		}
	}
	out, err := g.run(ctx, "symbolic-ref", "--short", "HEAD")
	if err != nil {
		return g, "", fetched, fmt.Errorf("the local copy %s is on no branch: %w", s.Clone, err)
	}
	branch = strings.TrimSpace(out)
	if branch, err = g.followEmptyRemote(ctx, branch, say); err != nil {
		return g, branch, fetched, err
	}
	if clean {
		if _, err := g.run(ctx, "rev-parse", "--quiet", "--verify", "HEAD"); err == nil {
			if _, err := g.run(ctx, "reset", "--quiet", "--hard", "HEAD"); err != nil {
				return g, branch, fetched, err
			}
		}
	}
	if fetched {
		if err := g.catchUp(ctx, branch, say); err != nil {
			return g, branch, fetched, err
		}
	}
	return g, branch, fetched, nil
}

// followEmptyRemote renames the local branch to the one an empty remote's
// HEAD names, so the first push lands where a plain clone of the
// repository looks. A remote with branches, or out of reach, changes
// nothing.
func (g gitRepo) followEmptyRemote(ctx context.Context, branch string, say func(string, ...any)) (string, error) {
	head := g.emptyRemoteHead(ctx)
	if head == "" || head == branch {
		return branch, nil
	}
	if _, err := g.run(ctx, "rev-parse", "--quiet", "--verify", "HEAD"); err != nil {
		_, err := g.run(ctx, "symbolic-ref", "HEAD", "refs/heads/"+head)
		return head, err
	}
	if _, err := g.run(ctx, "branch", "--move", "--force", branch, head); err != nil {
		return branch, err
	}
	say("the repository's HEAD names %s: the backups go there", head)
	return head, nil
}

// emptyRemoteHead is the branch an empty remote's HEAD names, or "" when
// the remote has branches or cannot be asked. ls-remote leaves an unborn
// HEAD out, but a clone of an empty repository takes it, and is cheap.
func (g gitRepo) emptyRemoteHead(ctx context.Context) string {
	heads, err := g.run(ctx, "ls-remote", "--heads", "origin")
	if err != nil || strings.TrimSpace(heads) != "" {
		return ""
	}
	url, err := g.run(ctx, "remote", "get-url", "origin")
	if err != nil {
		return ""
	}
	tmp, err := os.MkdirTemp("", "backup-head-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	probe := g
	probe.dir = ""
	if _, err := probe.run(ctx, "clone", "--quiet", "--bare", "--", strings.TrimSpace(url), filepath.Join(tmp, "r")); err != nil {
		return ""
	}
	probe.dir = filepath.Join(tmp, "r")
	out, err := probe.run(ctx, "symbolic-ref", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// catchUp brings the remote's commits of branch into the clone. Snapshot
// files never collide (each has its own name); only manifest.json can, and
// the caller rewrites it as the union of both sides, so the remote's
// version is taken in a conflict.
func (g gitRepo) catchUp(ctx context.Context, branch string, say func(string, ...any)) error {
	remote := "refs/remotes/origin/" + branch
	if _, err := g.run(ctx, "rev-parse", "--quiet", "--verify", remote); err != nil {
		return nil // nothing pushed yet
	}
	if _, err := g.run(ctx, "rev-parse", "--quiet", "--verify", "HEAD"); err != nil {
		_, err := g.run(ctx, "reset", "--quiet", "--hard", remote)
		return err
	}
	if _, err := g.run(ctx, "merge", "--quiet", "--ff-only", remote); err == nil {
		return nil
	}
	if _, err := g.run(ctx, "merge", "--quiet", "--no-edit", "--allow-unrelated-histories", "-X", "theirs", remote); err != nil {
		g.run(ctx, "merge", "--abort")
		say("could not merge the repository's newer commits (%v); the push will say if that matters", err)
	}
	return nil
}

// commitAndPush commits the given paths (nothing to commit is success) and
// pushes the branch. pushErr is the push's failure: the commit stays local.
func (g gitRepo) commitAndPush(ctx context.Context, branch, message string, paths ...string) (pushErr error, err error) {
	if _, err := g.run(ctx, append([]string{"add", "--"}, paths...)...); err != nil {
		return nil, err
	}
	// diff --cached exits 1 when something is staged.
	if _, staged := g.run(ctx, "diff", "--cached", "--quiet"); staged != nil {
		if _, err := g.run(ctx, "commit", "--quiet", "-m", message); err != nil {
			return nil, err
		}
	}
	if _, err := g.run(ctx, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch); err != nil {
		return err, nil
	}
	return nil, nil
}

// gitPresent says whether the git binary is there.
func gitPresent(bin string) (bool, string) {
	p, err := exec.LookPath(bin)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return false, bin + " is not installed"
		}
		return false, err.Error()
	}
	return true, p
}
