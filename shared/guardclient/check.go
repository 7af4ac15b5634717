package guardclient

import (
	"fmt"
	"math"
	"slices"

	"github.com/opsboard/opsboard/shared/wire"
)

// The checks below decide whether a decoded 2xx reply is the reply the
// route promises. Each returns "" when it is, or what is wrong with it.
// They are strict where a mistake would read as safe (a verdict, a flag, a
// result per text) and lenient elsewhere, so a sidecar that adds a field
// keeps working.

// checkScan: a verdict of clean or flagged that agrees with flagged, and a
// score in 0..1.
func checkScan(r wire.ScanReply) string {
	switch {
	case r.Verdict != wire.VerdictClean && r.Verdict != wire.VerdictFlagged:
		return fmt.Sprintf("the reply has no verdict of %q or %q (verdict %q)", wire.VerdictClean, wire.VerdictFlagged, r.Verdict)
	case r.Flagged != (r.Verdict == wire.VerdictFlagged):
		return fmt.Sprintf("the reply's verdict %q contradicts flagged %v", r.Verdict, r.Flagged)
	case !unitScore(r.MaxScore):
		return fmt.Sprintf("the reply's maxScore %v is not in 0..1", r.MaxScore)
	case r.Classifier == "":
		return "the reply names no classifier"
	case r.Disabled && r.Flagged:
		return "the reply is a disabled passthrough that flags"
	case r.Sender != nil && checkTrust(*r.Sender) != "":
		return "the reply's sender " + checkTrust(*r.Sender)
	}
	return ""
}

// checkClassify: exactly one result per text with every index once, each
// with a known label and a score in 0..1. The results are put in index
// order, so results[i] is the verdict on texts[i].
func checkClassify(r *wire.ClassifyReply, n int) string {
	if len(r.Results) != n {
		return fmt.Sprintf("the reply has %d results for %d texts", len(r.Results), n)
	}
	slices.SortStableFunc(r.Results, func(a, b wire.ClassifyResult) int { return a.Index - b.Index })
	for i, res := range r.Results {
		switch {
		case res.Index != i:
			return fmt.Sprintf("the reply has no result for text %d", i)
		case res.Label != wire.LabelBenign && res.Label != wire.LabelInjection:
			return fmt.Sprintf("result %d has label %q, not %s or %s", i, res.Label, wire.LabelBenign, wire.LabelInjection)
		case !unitScore(res.Score):
			return fmt.Sprintf("result %d has score %v, not in 0..1", i, res.Score)
		case res.Disabled && res.Flagged:
			return fmt.Sprintf("result %d is a disabled passthrough that flags", i)
		}
	}
	if r.Classifier == "" {
		return "the reply names no classifier"
	}
	return ""
}

// checkConfig: a configuration names its classifier.
func checkConfig(c wire.GuardConfig) string {
	if c.Classifier == "" {
		return "the reply is not a guard configuration (no classifier)"
	}
	return ""
}

// checkTrust: a trust record has an email and a known tier.
func checkTrust(r wire.TrustRecord) string {
	switch {
	case r.Email == "":
		return "record has no email"
	case r.Tier != wire.TierTrusted && r.Tier != wire.TierUnknown && r.Tier != wire.TierBlocked:
		return fmt.Sprintf("record has tier %q, not trusted, unknown or blocked", r.Tier)
	}
	return ""
}

func unitScore(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1 }
