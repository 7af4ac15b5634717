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
// unrelated task request. It stays linear in the text: the mail's words are
// counted once, the first time a candidate line (rare in ordinary mail)
// needs them, and each candidate then looks its few words up.
func scanUnrelated(folded string, hits map[string]bool) {
	if hits[ruleUnrelatedTask] || len(folded) < taskMinContext+taskMinLen {
		return
	}
	var counts map[string]int
	for line := range strings.SplitSeq(folded, "\n") {
		line = strings.TrimSpace(line)
		if len(line) < taskMinLen || len(line) > taskMaxLen || len(folded)-len(line) < taskMinContext {
			continue
		}
		if !isTaskRequest(line) {
			continue
		}
		if counts == nil {
			counts = contentWords(folded)
		}
		if unrelated(line, counts) {
			hits[ruleUnrelatedTask] = true
			return
		}
	}
}

// isTaskRequest reports whether one line of folded text is a single
// request for general work that does not speak of the mail.
func isTaskRequest(line string) bool {
	line = connective.ReplaceAllString(line, "")
	if !taskRequest.MatchString(line) || smallTalk.MatchString(line) || severalSentences(line) {
		return false
	}
	talk := mailTalk.FindAllString(quoted.ReplaceAllString(line, " "), -1)
	if quoted.MatchString(line) {
		talk = slices.DeleteFunc(talk, mailDeixis.MatchString)
	}
	return len(talk) == 0
}

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
// taskMinWords of them) occur nowhere else in the text whose content words
// counts holds.
func unrelated(line string, counts map[string]int) bool {
	own := contentWords(line)
	shared := 0
	for w, n := range own {
		if counts[w] > n {
			shared++
		}
	}
	return len(own) >= taskMinWords && shared == 0
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
