package heuristic

import (
	"regexp"
	"slices"
	"strings"
)

// ruleUnrelatedTask names a request for general work (explain, write,
// translate, a trivia question) standing on a line of its own in a mail
// whose other lines share none of its words. That is the shape of a task
// hijack: the attacker cannot know the mail it lands in, so the task it
// slips in is about something else, and an agent reading the mail as
// instructions would do it. A person's own requests in a mail speak of the
// mail's subject, or of "we" and "us", and are not flagged.
const ruleUnrelatedTask = "unrelated_task"

// taskRequest matches the start of a line that asks for general work:
// an imperative of the kind a model is given, or a question of fact.
var taskRequest = regexp.MustCompile(`^(?:(?:please|kindly)\s+)?(?:` +
	`(?:explain|describe|define|outline|summari[sz]e|elaborate on|discuss|compare|analy[sz]e|illustrate|break down|clarify|interpret|translate|write|draft|compose|develop|create|generate|produce|craft|design|provide|list|name|give|recommend|suggest|solve|calculate|compute|convert|teach|tell|show` +
	`|determine|classify|categori[sz]e|rate|rank|evaluate|assess|identify|detect|extract|find|research|look up|predict|forecast|estimate|brainstorm|paraphrase|rewrite|automate|set up|build|implement|recite|count|reverse|spell|invert|flip|schedule|organi[sz]e|sort|track|monitor|remind me|sync|back up|rename|merge|compile|gather|download|install|configure)\s` +
	`|(?:what|who|whom|whose|which|where|why|how|when)(?:'s|'re|\s)` +
	`|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:explain|describe|show|tell|give|write|provide|teach|list|translate|summari[sz]e|help me (?:understand|write|with|learn))\b` +
	// Second person: the line speaks to whoever reads it, about the reader.
	`|(?:i (?:want|need|would like)|i'd like) you to\s|your (?:next |new |real |only )?task is\s|do you (?:know|like|prefer|enjoy|believe)\s|let'?s (?:chat|talk|discuss|play|brainstorm|imagine|pretend)\s)`)

// connective is the word or two that hangs a request onto what came
// before ("also, tell me ...", "in addition, write ..."): it does not
// change what the request asks, so it is set aside before the match.
var connective = regexp.MustCompile(`^(?:(?:and|but|oh|ps|p\.s\.|also|additionally|in addition|furthermore|moreover|besides|plus|by the way|btw|separately|lastly|finally|now|then|next)\s*[,:;-]?\s+)+`)

// quoted finds a quotation of at least two words: a request that carries
// its own material ("classify the tone of this sentence: 'my dog ran
// away'") points with "this" at the quotation, not at the mail.
var quoted = regexp.MustCompile(`['"][^'"]*\s[^'"]*['"]`)

// mailDeixis is the part of mailTalk that points at a text ("this",
// "below"); with a quotation in the line it points at the quotation.
var mailDeixis = regexp.MustCompile(`\b(?:this|these|provided|given|below|above|each|following|paragraph|section|problem|text)\b`)

// smallTalk is a question about someone's own past ("how was the trip",
// "what did you think"): personal, never a task.
// A greeting ("how are you doing?") is a person's too: it is what people
// write to each other, so a bare "how are you feeling today?" passes even
// though an assistant can be chatted up the same way.
var smallTalk = regexp.MustCompile(`^(?:(?:how|what|where|when|why|who)\s+(?:was|were|did|had|has|have you)\b|how (?:are|have) (?:you|things|the kids|the family)\b|how(?:'s| is) (?:it going|everything|life|the family)\b)`)

// mailTalk marks a line that speaks of the mail's own business (people
// arranging things together, what came with the mail) or points at the
// text around it ("summarise this article"): a request about the mail.
var mailTalk = regexp.MustCompile(`\b(?:we|us|our|ours|attached|attachment|enclosed|meeting|call|reply|respond|email|e-mail|mail|message|thread|below|above|this|these|provided|given|article|document|passage|dialogue|conversation|each|following|paragraph|section|problem|text)\b`)

// Bounds of the unrelated-task rule: the line is one request of a sensible
// length, and the mail around it has enough text to have a subject.
const (
	taskMinLen     = 16
	taskMaxLen     = 220
	taskMinContext = 160
	taskMinWords   = 2
)

// scanUnrelated adds ruleUnrelatedTask when some line of folded text is an
// unrelated task request. It stays linear in the text: the first few
// candidate lines (rare in ordinary mail) search the text for their few
// words; past those, the mail's words are counted once and every further
// candidate looks its words up.
func scanUnrelated(folded string, hits map[string]bool) {
	if hits[ruleUnrelatedTask] || len(folded) < taskMinContext+taskMinLen {
		return
	}
	var counts map[string]int
	candidates := 0
	for line := range strings.SplitSeq(folded, "\n") {
		line = strings.TrimSpace(line)
		if len(line) < taskMinLen || len(line) > taskMaxLen || len(folded)-len(line) < taskMinContext {
			continue
		}
		if !isTaskRequest(line) {
			continue
		}
		if candidates++; candidates > searchedLines && counts == nil {
			counts = contentWords(folded)
		}
		if unrelated(line, folded, counts) {
			hits[ruleUnrelatedTask] = true
			return
		}
	}
}

// searchedLines is how many candidate lines search the text for their
// words before the text's words are counted for all.
const searchedLines = 4

// isTaskRequest reports whether one line of folded text is a single
// request for general work that does not speak of the mail.
func isTaskRequest(line string) bool {
	if loc := connective.FindStringIndex(line); loc != nil {
		line = line[loc[1]:]
	}
	if !taskStart[firstWord(line)] || !taskRequest.MatchString(line) || smallTalk.MatchString(line) || severalSentences(line) {
		return false
	}
	if !strings.ContainsAny(line, `'"`) || !quoted.MatchString(line) {
		return !mailTalk.MatchString(line)
	}
	talk := mailTalk.FindAllString(quoted.ReplaceAllString(line, " "), -1)
	return len(slices.DeleteFunc(talk, mailDeixis.MatchString)) == 0
}

// firstWord is the first word of line after "please" or "kindly", cut at
// an apostrophe ("what's" is "what").
func firstWord(line string) string {
	for _, polite := range []string{"please ", "kindly "} {
		line = strings.TrimPrefix(line, polite)
	}
	if i := strings.IndexAny(line, " '"); i >= 0 {
		return line[:i]
	}
	return line
}

// taskStart holds every word taskRequest can start with after "please":
// most lines of a mail start with none, and a map lookup spares them the
// expression (read-only).
var taskStart = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`explain describe define outline summarise summarize elaborate discuss compare
		analyse analyze illustrate break clarify interpret translate write draft compose develop create generate
		produce craft design provide list name give recommend suggest solve calculate compute convert teach tell
		show determine classify categorise categorize rate rank evaluate assess identify detect extract find
		research look predict forecast estimate brainstorm paraphrase rewrite automate set build implement recite
		count reverse spell invert flip schedule organise organize sort track monitor remind sync back rename
		merge compile gather download install configure what who whom whose which where why how when can could
		would will i your do let lets`) {
		m[w] = true
	}
	return m
}()

// severalSentences reports whether line holds more than one sentence: a
// paragraph of the mail's own prose, not a request slipped in.
func severalSentences(line string) bool {
	for _, sep := range []string{". ", "! ", "? "} {
		if i := strings.Index(line, sep); i >= 0 && i < len(line)-len(sep)-1 {
			return true
		}
	}
	return false
}

// unrelated reports whether the content words of line (at least
// taskMinWords of them) occur nowhere else in folded, the text the line is
// part of. counts, when not nil, holds the content words of folded.
func unrelated(line, folded string, counts map[string]int) bool {
	own := contentWords(line)
	if len(own) < taskMinWords {
		return false
	}
	for w, n := range own {
		found := counts[w]
		if counts == nil {
			found = wordCount(folded, w)
		}
		if found > n {
			return false
		}
	}
	return true
}

// wordCount counts the occurrences of w in s as a whole word.
func wordCount(s, w string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return n
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || notWordByte(rune(s[start-1]))) && (end == len(s) || notWordByte(rune(s[end]))) {
			n++
		}
		i = end
	}
}

// contentWords counts the words of s that can say what it is about: four
// letters or more, and not a stop word.
func contentWords(s string) map[string]int {
	counts := map[string]int{}
	for w := range strings.FieldsFuncSeq(s, notWordByte) {
		if len(w) >= 4 && !stopWord[w] {
			counts[w]++
		}
	}
	return counts
}

func notWordByte(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
}

// stopWord holds the common words of four letters or more that say nothing
// of a topic (read-only).
var stopWord = map[string]bool{
	"about": true, "above": true, "after": true, "again": true, "also": true, "been": true, "before": true,
	"being": true, "below": true, "between": true, "both": true, "could": true, "does": true, "doing": true,
	"down": true, "during": true, "each": true, "from": true, "further": true, "have": true, "having": true,
	"here": true, "into": true, "just": true, "like": true, "more": true, "most": true, "much": true,
	"only": true, "other": true, "over": true, "please": true, "same": true, "should": true, "some": true,
	"such": true, "than": true, "that": true, "their": true, "them": true, "then": true, "there": true,
	"these": true, "they": true, "this": true, "those": true, "through": true, "under": true, "until": true,
	"very": true, "want": true, "were": true, "what": true, "when": true, "where": true, "which": true,
	"while": true, "will": true, "with": true, "would": true, "your": true, "yours": true, "kindly": true,
	"explain": true, "describe": true, "write": true, "provide": true, "tell": true, "show": true,
	"give": true, "work": true, "works": true, "make": true, "know": true, "need": true, "thanks": true,
	"thank": true, "hello": true, "best": true, "regards": true, "dear": true, "think": true,
}
