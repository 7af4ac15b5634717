package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// An Obsidian vault the person already keeps: the app's own folder, daily
// notes without frontmatter in a folder with a space, a broken page, and
// links out of the vault.
var obsidian = map[string]string{
	".obsidian/app.json":        `{"theme":"dark"}`,
	".obsidian/snippets/x.md":   "not a page\n",
	".trash/old.md":             "deleted\n",
	"Daily notes/2026-03-01.md": "Met [[Ann Lee]] about the lease.\n",
	"people/Ann Lee.md":         "---\nid: ann-lee\ntype: person\nemails: [Ann@Acme.com]\nfavourite: tea # hers\n---\nAnn runs facilities.\n",
	"organizations/Acme.md":     "---\ntype: organization\ndomains: [acme.com]\n---\n",
	"broken.md":                 "---\ntype: [person\n---\nbody\n",
	"notes.txt":                 "not markdown\n",
}

func TestVaultReadsAnObsidianFolderAndWritesNothing(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	files(t, dir, obsidian)
	files(t, outside, map[string]string{"secret.md": "---\ntype: person\n---\n", "more/deep.md": "x\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "secret.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "more"), filepath.Join(dir, "more")); err != nil {
		t.Fatal(err)
	}
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)

	var list wire.PageList
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/vault", ""), &list); err != nil {
		t.Fatal(err)
	}
	var paths []string
	broken := map[string]bool{}
	for _, p := range list.Pages {
		paths = append(paths, p.Path)
		broken[p.Path] = p.Broken != ""
	}
	slices.Sort(paths)
	if diff := cmp.Diff([]string{"Daily notes/2026-03-01.md", "broken.md", "organizations/Acme.md", "people/Ann Lee.md"}, paths); diff != "" {
		t.Errorf("pages: dot folders, other files and links out are skipped (-want +got)\n%s", diff)
	}
	if !broken["broken.md"] || broken["people/Ann Lee.md"] {
		t.Errorf("broken: %v", broken)
	}
	var people wire.PageList
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/vault?type=person", ""), &people); err != nil {
		t.Fatal(err)
	}
	if len(people.Pages) != 1 || people.Pages[0].Title != "Ann Lee" || !slices.Equal(people.Pages[0].Emails, []string{"ann@acme.com"}) {
		t.Errorf("people: %+v", people.Pages)
	}
	ann := d.pageOf(t, "people/Ann Lee.md") // %2F inside the segment
	if ann.Frontmatter["favourite"] != "tea" || !strings.Contains(ann.Body, "facilities") {
		t.Errorf("page: %+v", ann)
	}
	var h struct {
		Degraded bool              `json:"degraded"`
		Vault    *wire.VaultHealth `json:"vault"`
	}
	if _, err := getJSON(d.url+"/api/health", &h); err != nil {
		t.Fatal(err)
	}
	if h.Degraded || h.Vault == nil || h.Vault.Pages != 4 || h.Vault.Broken != 1 {
		t.Errorf("health: a broken page is counted, never degraded: %+v %+v", h, h.Vault)
	}
	d.refused(t, http.StatusNotFound, "", "GET", pagePath("../board.json"), "")
	d.refused(t, http.StatusNotFound, "", "GET", pagePath("secret.md"), "")
	d.refused(t, http.StatusNotFound, "", "GET", pagePath("more/deep.md"), "")
	d.refused(t, http.StatusBadRequest, "broken", "POST", "/api/cases", `{"title":"x","vaultLinks":["broken.md"]}`)
	d.refused(t, http.StatusBadRequest, "broken", "PATCH", pagePath("broken.md"), `{"append":"x"}`)
	d.stop(t)
	for p, text := range obsidian {
		if got := readText(t, filepath.Join(dir, filepath.FromSlash(p))); got != text {
			t.Errorf("%s was rewritten by reading it:\n%s", p, got)
		}
	}
}

func TestVaultLinksBothWaysThroughACrash(t *testing.T) {
	dir, data := t.TempDir(), filepath.Join(t.TempDir(), "board.json")
	files(t, dir, map[string]string{
		"people/Ann Lee.md": "---\ntype: person\n---\nNotes.\n",
		"people/Bob.md":     "---\nid: V-40\ntype: person\n---\n",
	})
	ann := filepath.Join(dir, "people", "Ann Lee.md")
	d := vaultBoard(t, data, dir)
	c := d.postCase(t, map[string]any{"title": "Lease", "vaultLinks": []string{"people/Ann Lee.md"}})
	id := d.pageOf(t, "people/Ann Lee.md").ID
	if !strings.HasPrefix(id, "V-") || !slices.Equal(c.VaultLinks, []string{id}) {
		t.Fatalf("a path is stored as the page's minted id: page %q, links %v", id, c.VaultLinks)
	}
	if got := d.pageOf(t, id).Cases; !slices.Equal(got, []string{c.ID}) {
		t.Errorf("the page's cases: %v", got)
	}
	eventuallyHolds(t, ann, []string{c.ID, id, "Notes."})
	d.must(t, http.StatusOK, "PATCH", "/api/cases/"+c.ID, `{"vaultLinks":[]}`)
	eventuallyHolds(t, ann, []string{id}, c.ID)
	d.must(t, http.StatusOK, "PATCH", "/api/cases/"+c.ID, jsonBody(t, map[string]any{"vaultLinks": []string{id, "V-40"}}))
	eventuallyHolds(t, ann, []string{c.ID})
	eventuallyHolds(t, filepath.Join(dir, "people", "Bob.md"), []string{c.ID})

	// A crash between the store and the files: Ann's page lost the link,
	// Bob's names a case that no longer links it. The store is the truth.
	d.kill()
	files(t, dir, map[string]string{
		"people/Ann Lee.md": "---\nid: " + id + "\ntype: person\n---\nNotes.\n",
		"people/Bob.md":     "---\nid: V-40\ntype: person\ncases: [" + c.ID + ", CASE-99]\n---\n",
	})
	d = vaultBoard(t, data, dir)
	eventuallyHolds(t, ann, []string{c.ID, "Notes."})
	eventuallyHolds(t, filepath.Join(dir, "people", "Bob.md"), []string{c.ID}, "CASE-99")

	d.must(t, http.StatusOK, "DELETE", "/api/cases/"+c.ID, "")
	if got := d.pageOf(t, id).Cases; !slices.Equal(got, []string{c.ID}) {
		t.Errorf("archiving keeps the link: %v", got)
	}
	d.must(t, http.StatusOK, "DELETE", "/api/cases/"+c.ID+"?hard=1", "")
	eventuallyHolds(t, ann, []string{"Notes."}, c.ID)
}

func TestVaultHandEditBeforeTheWatcherSeesItIsKept(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{"people/Ann.md": "---\ntype: person\nmood: calm\n---\nFirst.\n"})
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)
	for i, hand := range []string{"Second.", "Third.", "Fourth."} {
		// The board's write lands before the watcher re-reads the hand edit.
		files(t, dir, map[string]string{"people/Ann.md": "---\ntype: person\nmood: busy\n---\n" + hand + "\n"})
		d.pageWrite(t, http.StatusOK, "PATCH", pagePath("people/Ann.md"), map[string]any{"append": "call " + hand, "aliases": []string{"A" + strings.Repeat("n", i+1)}})
		text := readText(t, filepath.Join(dir, "people", "Ann.md"))
		for _, want := range []string{hand, "mood: busy", "call " + hand, "A" + strings.Repeat("n", i+1)} {
			if !strings.Contains(text, want) {
				t.Errorf("write %d lost %q:\n%s", i, want, text)
			}
		}
	}
}

func TestVaultRenameRewritesLinksAndMergeFolds(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{
		"people/Ann Lee.md": "---\ntype: person\nemails: [ann@acme.com]\n---\n",
		"people/A Lee.md":   "---\ntype: person\nemails: [alee@acme.com]\naliases: [Annie]\n---\n",
		"topics/Lease.md":   "Talked to [[Ann Lee]] and [[ann lee|Ann]], then [[A Lee]].\n",
	})
	lease := filepath.Join(dir, "topics", "Lease.md")
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)
	c := d.postCase(t, map[string]any{"title": "Lease", "vaultLinks": []string{"people/Ann Lee.md"}})
	c2 := d.postCase(t, map[string]any{"title": "Keys", "vaultLinks": []string{"people/A Lee.md"}})
	m := d.postMessage(t, "/api/messages", map[string]any{"from": "alee@acme.com", "subject": "keys"})
	src, dst := c2.VaultLinks[0], c.VaultLinks[0]
	if !slices.Equal(m.Entities, []string{src}) {
		t.Fatalf("entities %v, want [%s]", m.Entities, src)
	}

	dry := d.pageWrite(t, http.StatusOK, "PATCH", pagePath(dst), map[string]any{"title": "Ann Smith", "dryRun": true})
	if !slices.Contains(dry.Changes, "topics/Lease.md") || !strings.Contains(readText(t, lease), "[[Ann Lee]]") {
		t.Errorf("a dry run lists and writes nothing: %v\n%s", dry.Changes, readText(t, lease))
	}
	d.refused(t, http.StatusBadRequest, "title", "PATCH", pagePath(dst), `{"title":"A Lee"}`)
	d.pageWrite(t, http.StatusOK, "PATCH", pagePath(dst), map[string]any{"title": "Ann Smith"})
	if got := readText(t, lease); !strings.Contains(got, "[[Ann Smith]]") || !strings.Contains(got, "[[Ann Smith|Ann]]") || strings.Contains(got, "Ann Lee") {
		t.Errorf("links rewritten:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "people", "Ann Smith.md")); err != nil {
		t.Errorf("the file is renamed: %v", err)
	}
	if p := d.pageOf(t, dst); p.Title != "Ann Smith" || !slices.Equal(p.Cases, []string{c.ID}) {
		t.Errorf("the case link holds an id, so it survives: %+v", p.PageSummary)
	}

	d.refused(t, http.StatusBadRequest, "intoId", "POST", pagePath(src)+"/merge", jsonBody(t, map[string]string{"intoId": src}))
	d.pageWrite(t, http.StatusOK, "POST", pagePath(src)+"/merge", map[string]string{"intoId": dst})
	into := d.pageOf(t, dst)
	if !slices.Contains(into.Emails, "alee@acme.com") || !slices.Contains(into.Aliases, "Annie") || !slices.Contains(into.Cases, c2.ID) {
		t.Errorf("merged into: %+v", into.PageSummary)
	}
	if stub := d.pageOf(t, src); stub.MergedInto != dst {
		t.Errorf("stub: %+v", stub)
	}
	if got := d.caseOf(t, c2.ID).VaultLinks; !slices.Equal(got, []string{dst}) {
		t.Errorf("the case follows the merge: %v", got)
	}
	var mr wire.MessageDetail
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/messages/"+m.ID, ""), &mr); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mr.Message.Entities, []string{dst}) {
		t.Errorf("the message follows the merge: %v", mr.Message.Entities)
	}
	if got := readText(t, lease); !strings.Contains(got, "then [[Ann Smith]]") || strings.Contains(got, "[[A Lee]]") {
		t.Errorf("merge rewrites links:\n%s", got)
	}
	d.refused(t, http.StatusBadRequest, "intoId", "POST", pagePath(c.VaultLinks[0])+"/merge", jsonBody(t, map[string]string{"intoId": src}))
}

func TestVaultResolvesMailToPages(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{
		"people/Ann Lee.md":     "---\ntype: person\nemails: [ann@acme.com]\n---\n",
		"organizations/Acme.md": "---\ntype: organization\ndomains: [acme.com]\n---\n",
		"people/Carol Jones.md": "---\ntype: person\naliases: [CJ]\n---\n",
	})
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)
	c := d.postCase(t, map[string]any{"title": "Lease"})
	resolved := d.postMessage(t, "/api/messages", map[string]any{"from": "Ann Lee <ANN@Acme.com>", "subject": "hi"})
	domain := d.postMessage(t, "/api/cases/"+c.ID+"/messages", map[string]any{"from": "bob@acme.com", "subject": "invoice"})
	unknown := d.postMessage(t, "/api/messages", map[string]any{"from": "Carol Jones <carol@other.net>", "subject": "hello", "receivedAt": "2026-03-01T10:00:00Z"})
	out := d.postMessage(t, "/api/messages", map[string]any{"from": "me@home.org", "to": "ann@acme.com, zed@x.org", "outbound": true, "subject": "re"})
	ann, acme, carol := d.pageOf(t, "people/Ann Lee.md").ID, d.pageOf(t, "organizations/Acme.md").ID, d.pageOf(t, "people/Carol Jones.md")
	if ann == "" || acme == "" {
		t.Fatalf("resolving mints the pages' ids: %q %q", ann, acme)
	}
	got := [][]string{resolved.Entities, domain.Entities, unknown.Entities, out.Entities}
	if diff := cmp.Diff([][]string{{ann}, {acme}, nil, {ann}}, got); diff != "" {
		t.Errorf("entities (-want +got)\n%s", diff)
	}
	var un wire.UnresolvedSenders
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/vault/unresolved", ""), &un); err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, s := range un.Senders {
		addrs = append(addrs, s.Address)
		if s.Address == "carol@other.net" && (s.Name != "Carol Jones" || s.Messages != 1 || len(s.Suggestions) == 0) {
			t.Errorf("carol: %+v", s)
		}
	}
	slices.Sort(addrs)
	if diff := cmp.Diff([]string{"bob@acme.com", "carol@other.net"}, addrs); diff != "" {
		t.Errorf("unresolved: a domain alone does not name the person (-want +got)\n%s", diff)
	}

	// Attaching the address resolves that sender's past mail.
	d.pageWrite(t, http.StatusOK, "PATCH", pagePath("people/Carol Jones.md"), map[string]any{"emails": []string{"carol@other.net"}})
	carol = d.pageOf(t, "people/Carol Jones.md")
	var mr wire.MessageDetail
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/messages/"+unknown.ID, ""), &mr); err != nil {
		t.Fatal(err)
	}
	if carol.ID == "" || !slices.Equal(mr.Message.Entities, []string{carol.ID}) {
		t.Errorf("attach resolves past mail: page %q, entities %v", carol.ID, mr.Message.Entities)
	}
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/vault/unresolved", ""), &un); err != nil {
		t.Fatal(err)
	}
	if len(un.Senders) != 1 || un.Senders[0].Address != "bob@acme.com" {
		t.Errorf("after attach: %+v", un.Senders)
	}
}

func TestVaultPageFromUncleanMailIsAProposal(t *testing.T) {
	dir := t.TempDir()
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)
	unclean := d.postMessage(t, "/api/messages", map[string]any{"from": "dan@evil.example", "subject": "hi", "scan": "unscanned"})
	clean := d.postMessage(t, "/api/messages", map[string]any{"from": "eve@good.example", "subject": "hi", "scan": "clean"})
	body := jsonBody(t, map[string]any{"title": "Dan", "type": "person", "emails": []string{"dan@evil.example"}, "fromMessage": unclean.ID, "actor": "agent"})
	var held wire.PageProposed
	if err := json.Unmarshal(d.must(t, http.StatusAccepted, "POST", "/api/vault/pages", body), &held); err != nil {
		t.Fatal(err)
	}
	if held.Proposal.Verb != "create_page" || held.Proposal.Actor != wire.ActorAgent {
		t.Errorf("proposal: %+v", held.Proposal)
	}
	if _, err := os.Stat(filepath.Join(dir, "people", "Dan.md")); err == nil {
		t.Error("a held page is not written")
	}
	var ok wire.ApproveReply
	if err := json.Unmarshal(d.must(t, http.StatusOK, "POST", "/api/pending/"+held.Proposal.ID+"/approve", ""), &ok); err != nil {
		t.Fatal(err)
	}
	if ok.Result.Page == nil || ok.Result.Page.Title != "Dan" {
		t.Errorf("approval makes the page: %+v", ok.Result)
	}
	if _, err := os.Stat(filepath.Join(dir, "people", "Dan.md")); err != nil {
		t.Errorf("approved page: %v", err)
	}
	d.refused(t, http.StatusNotFound, "", "POST", "/api/pending/"+held.Proposal.ID+"/approve", "")
	made := d.pageWrite(t, http.StatusCreated, "POST", "/api/vault/pages", map[string]any{"title": "Eve", "type": "person", "fromMessage": clean.ID, "actor": "agent"})
	if made.Page.Title != "Eve" {
		t.Errorf("clean mail: %+v", made.Page)
	}
	d.pageWrite(t, http.StatusCreated, "POST", "/api/vault/pages", map[string]any{"title": "Dan Two", "type": "person", "fromMessage": unclean.ID})
	d.refused(t, http.StatusBadRequest, "fromMessage", "POST", "/api/vault/pages", `{"title":"X","type":"person","fromMessage":"M-999","actor":"agent"}`)
	again := d.pageWrite(t, http.StatusOK, "POST", "/api/vault/pages", map[string]any{"title": "dan", "type": "person"})
	if !again.Existing {
		t.Errorf("same title: %+v", again)
	}
}

func TestVaultBadInput(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{
		"people/Ann.md": "---\ntype: person\nemails: [ann@acme.com]\n---\n",
		"people/Bob.md": "---\ntype: person\n---\n",
	})
	d := vaultBoard(t, filepath.Join(t.TempDir(), "board.json"), dir)
	before := map[string]string{"people/Ann.md": readText(t, filepath.Join(dir, "people", "Ann.md")), "people/Bob.md": readText(t, filepath.Join(dir, "people", "Bob.md"))}
	for _, tc := range []struct {
		code              int
		msg, method, path string
		body              string
	}{
		{400, "type", "POST", "/api/vault/pages", `{"title":"X","type":"friend"}`},
		{400, "title", "POST", "/api/vault/pages", `{"title":"","type":"person"}`},
		{400, "title", "POST", "/api/vault/pages", `{"title":"a/b","type":"person"}`},
		{400, "title", "POST", "/api/vault/pages", `{"title":".hidden","type":"person"}`},
		{400, "title", "POST", "/api/vault/pages", `{"title":"x#y","type":"person"}`},
		{400, "title", "POST", "/api/vault/pages", `{"title":"x|y","type":"person"}`},
		{400, "emails", "POST", "/api/vault/pages", `{"title":"X","type":"person","emails":["not-an-email"]}`},
		{400, "title", "PATCH", pagePath("people/Bob.md"), `{"title":"Ann"}`},
		{400, "emails", "PATCH", pagePath("people/Bob.md"), `{"emails":["nope"]}`},
		{400, "intoId", "POST", pagePath("people/Bob.md") + "/merge", `{"intoId":"people/Bob.md"}`},
		{400, "intoId", "POST", pagePath("people/Bob.md") + "/merge", `{"intoId":"people/Nobody.md"}`},
		{400, "type", "GET", "/api/vault?type=friend", ""},
		{400, "cursor", "GET", "/api/vault?cursor=forged", ""},
		{400, "limit", "GET", "/api/vault?limit=0", ""},
		{400, "limit", "GET", "/api/vault?limit=501", ""},
		{404, "", "GET", pagePath("../../etc/passwd"), ""},
		{404, "", "PATCH", pagePath("../outside.md"), `{"append":"x"}`},
		{404, "", "GET", pagePath("V-999"), ""},
		{413, "", "POST", "/api/vault/pages", jsonBody(t, map[string]string{"title": "Big", "type": "topic", "body": strings.Repeat("x", wire.MaxPageBytes+1)})},
		{400, "people/Nobody.md", "POST", "/api/cases", `{"title":"x","vaultLinks":["people/Nobody.md"]}`},
		{400, "V-77", "POST", "/api/cases", `{"title":"x","vaultLinks":["V-77"]}`},
	} {
		d.refused(t, tc.code, tc.msg, tc.method, tc.path, tc.body)
	}
	var list wire.PageList
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/vault", ""), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Pages) != 2 {
		t.Errorf("bad input made pages: %+v", list.Pages)
	}
	for p, text := range before {
		if got := readText(t, filepath.Join(dir, filepath.FromSlash(p))); got != text {
			t.Errorf("bad input changed %s:\n%s", p, got)
		}
	}
	testkit.Eventually(t, "no case was made", func() bool {
		var cs wire.CaseList
		_, err := getJSON(d.url+"/api/cases", &cs)
		return err == nil && len(cs.Cases) == 0
	})
}

func TestVaultDefaultFolderIsCreatedBesideTheData(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 0, "SVC_VAULT_DIR=")
	testkit.Eventually(t, "the default vault answers", func() bool {
		code, _, err := d.do("GET", "/api/vault", "")
		return err == nil && code == http.StatusOK
	})
	d.pageWrite(t, http.StatusCreated, "POST", "/api/vault/pages", map[string]any{"title": "Acme", "type": "organization", "domains": []string{"acme.com"}})
	if _, err := os.Stat(filepath.Join(filepath.Dir(data), "vault", "organizations", "Acme.md")); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(t.TempDir(), "gone")
	d2 := start(t, filepath.Join(t.TempDir(), "board.json"), 0, "SVC_VAULT_DIR="+missing)
	d2.refused(t, http.StatusServiceUnavailable, "vault", "GET", "/api/vault", "")
	if _, err := os.Stat(missing); err == nil {
		t.Error("a folder the person named is never created")
	}
}
