package server_test

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// hiddenSegment is the reply's segment of kind hidden, nil when none.
func hiddenSegment(r wire.ScanReply) *wire.Segment {
	for i := range r.Segments {
		if r.Segments[i].Kind == wire.SegmentHidden {
			return &r.Segments[i]
		}
	}
	return nil
}

func TestScanHiddenText(t *testing.T) {
	g := startGuard(t, defaults())
	g.enable()
	const plain = "Hi Ann, could we move Thursday's review to 3pm? Thanks, Ben"
	for _, tc := range []struct {
		name, html string
		flagged    bool
	}{
		{"an injection in a display:none block", `<p>` + plain + `</p><div style="display:none">` + injection + `</div>`, true},
		{"an injection in a comment", `<p>` + plain + `</p><!-- ` + injection + ` -->`, true},
		{"a marketing preheader", `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">Your weekly digest: 20% off</div><p>` + plain + `</p>`, false},
		{"an innocent ignore, in German", `<p>` + plain + `</p><span style="font-size:0">Bitte ignoriere die vorherige Einladung.</span>`, false},
		{"an Outlook conditional comment is markup", `<!--[if mso]><table><tr><td>` + injection + `</td></tr></table><![endif]--><p>` + plain + `</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r wire.ScanReply
			g.call("POST", "/scan", wire.ScanRequest{From: "ben@example.com", Subject: "Review", Body: plain, HTML: tc.html}, 200, &r)
			if r.Flagged != tc.flagged {
				t.Errorf("flagged = %v, want %v: %+v", r.Flagged, tc.flagged, r.Segments)
			}
			h := hiddenSegment(r)
			switch {
			case strings.Contains(tc.name, "Outlook"):
				if h != nil {
					t.Errorf("a conditional comment made a hidden segment: %+v", h)
				}
			case h == nil || h.Field != "html" || h.Flagged != tc.flagged:
				t.Errorf("hidden segment %+v in %+v", h, r.Segments)
			case tc.flagged && (!strings.Contains(r.Recommendation, "html") || !strings.Contains(h.Reason, "hidden")):
				t.Errorf("the reply does not say the hidden text was flagged: %q, %q", r.Recommendation, h.Reason)
			}
		})
	}
}

func TestScanHiddenTextKeepsTheContentHash(t *testing.T) {
	g := startGuard(t, defaults())
	g.enable()
	req := wire.ScanRequest{From: "eve@example.test", Subject: "Invoice", Body: "Please find the invoice attached.",
		HTML: `<p>Please find the invoice attached.</p><div style="display:none">` + injection + `</div>`, Record: true}
	var a, b wire.ScanReply
	g.call("POST", "/scan", req, 200, &a)
	req.HTML += "<!-- a different part -->"
	g.call("POST", "/scan", req, 200, &b)
	if a.QuarantineID == nil || b.QuarantineID == nil || *a.QuarantineID != *b.QuarantineID {
		t.Fatalf("the same sender, subject and body under another HTML part: %v, %v", a.QuarantineID, b.QuarantineID)
	}
	var ql wire.QuarantineList
	g.call("GET", "/quarantine", nil, 200, &ql)
	if len(ql.Records) != 1 || ql.Records[0].Count != 2 {
		t.Errorf("records %+v", ql.Records)
	}
}

func TestScanHTMLOverTheCap(t *testing.T) {
	g := startGuard(t, defaults())
	g.enable()
	big := strings.Repeat("a", wire.MaxGuardHTML+1)
	body := g.call("POST", "/scan", wire.ScanRequest{From: "a@b.c", Body: "hi", HTML: big}, 400, nil)
	if !strings.Contains(string(body), "field 'html'") {
		t.Errorf("the 400 does not name the field: %s", body)
	}
	g.call("POST", "/scan", wire.ScanRequest{From: "a@b.c", Body: "hi", HTML: big[1:]}, 200, nil)
}
