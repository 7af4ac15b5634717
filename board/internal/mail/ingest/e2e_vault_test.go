package ingest_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// page creates a vault page once the board's first scan of its folder
// ended (the vault routes answer 503 until then).
func (d *daemon) page(body map[string]any) gjson.Result {
	d.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get("http://" + d.Addr + "/api/vault")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("the vault never answered: %v", err)
		}
	}
	return d.call("POST", "/api/vault/pages", body).Get("page")
}

func TestIngestRoutesBySendersPersonPage(t *testing.T) {
	d := startBoard(t, "")
	vendor := d.call("POST", "/api/cases", map[string]any{"title": "Vendor renewal"}).Get("case.id").String()
	contract := d.call("POST", "/api/cases", map[string]any{"title": "Bob's contract"}).Get("case.id").String()
	shared1 := d.call("POST", "/api/cases", map[string]any{"title": "Kitchen"}).Get("case.id").String()
	shared2 := d.call("POST", "/api/cases", map[string]any{"title": "Garden"}).Get("case.id").String()
	done := d.call("POST", "/api/cases", map[string]any{"title": "Old deal", "status": "done"}).Get("case.id").String()
	// Bob's work address is on the vendor case, so by appearance alone his
	// mail would go there; his page is linked from his contract's case.
	d.call("POST", "/api/cases/"+vendor+"/messages", map[string]any{"from": "Bob <bob@vendor.example>", "subject": "Renewal",
		"body": "Price attached.", "receivedAt": "2026-03-01T09:00:00Z"})
	bob := d.page(map[string]any{"title": "Bob Stone", "type": "person", "emails": []string{"bob@vendor.example", "bob@home.example"}}).Get("id").String()
	cleo := d.page(map[string]any{"title": "Cleo Hart", "type": "person", "emails": []string{"cleo@builder.example"}}).Get("id").String()
	dan := d.page(map[string]any{"title": "Dan Ash", "type": "person", "emails": []string{"dan@old.example"}}).Get("id").String()
	d.call("PATCH", "/api/cases/"+contract, map[string]any{"vaultLinks": []string{bob}})
	d.call("PATCH", "/api/cases/"+shared1, map[string]any{"vaultLinks": []string{cleo}})
	d.call("PATCH", "/api/cases/"+shared2, map[string]any{"vaultLinks": []string{cleo}})
	d.call("PATCH", "/api/cases/"+done, map[string]any{"vaultLinks": []string{dan}})

	box := filepath.Join(d.Dir, "Maildir")
	writeMaildir(t, box,
		msg(map[string]string{"Message-ID": "<b1@vendor.example>", "From": "Bob <BOB@vendor.example>", "Subject": "Signed", "Date": "Mon, 2 Mar 2026 10:00:00 +0000"}, "Done.\r\n"),
		msg(map[string]string{"Message-ID": "<b2@home.example>", "From": "bob@home.example", "Subject": "From home", "Date": "Mon, 2 Mar 2026 11:00:00 +0000"}, "Hi.\r\n"),
		msg(map[string]string{"Message-ID": "<c1@builder.example>", "From": "cleo@builder.example", "Subject": "Quote", "Date": "Mon, 2 Mar 2026 12:00:00 +0000"}, "Two cases.\r\n"),
		msg(map[string]string{"Message-ID": "<d1@old.example>", "From": "dan@old.example", "Subject": "Hello again", "Date": "Mon, 2 Mar 2026 13:00:00 +0000"}, "Closed case.\r\n"),
	)
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir"})
	rep, code := d.ingest()
	if code != 0 || rep.Get("new").Int() != 4 || rep.Get("routed.case").Int() != 2 || rep.Get("routed.inbox").Int() != 2 {
		t.Fatalf("code %d, report %s", code, rep.Raw)
	}
	where := map[string]string{}
	for _, m := range d.messages() {
		where[m.Get("subject").String()] = m.Get("caseId").String()
	}
	for subject, want := range map[string]string{
		"Signed":      contract, // the page's one open case beats the case the address appears on
		"From home":   contract, // an address the board never saw, known from the page
		"Quote":       "",       // the page is linked from two open cases: the person chooses
		"Hello again": "",       // the page's only case is done
	} {
		if where[subject] != want {
			t.Errorf("%q went to %q, want %q", subject, where[subject], want)
		}
	}
}
