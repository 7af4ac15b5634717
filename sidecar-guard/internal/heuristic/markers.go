package heuristic

import (
	"net/url"
	"regexp"
	"strings"
)

// chatMarkers are the role and turn delimiters of common chat templates.
// In an email they can only be an attempt to open a forged system turn.
// An opening "[system]" is left out: automated notices use it as a tag.
var chatMarkers = []string{
	"<|im_start|>", "<|im_end|>", "<|system|>", "<|user|>", "<|assistant|>",
	"<|endoftext|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
	"<|begin_of_text|>", "[inst]", "[/inst]", "<<sys>>", "<</sys>>",
	"<system>", "</system>", "<system_prompt>", "[/system]",
	"### system:", "### instruction:", "### new instruction",
	"{system:", "</email>", "</user>", "<end of email>",
}

// systemLine is a line posing as a system or developer turn that speaks
// to the reader.
//
// It runs on one line, trimmed of leading spaces.
var systemLine = regexp.MustCompile(`^(?:#+\s*)?(?:system|sys|admin|administrator|developer)\s*(?:message|prompt|note|override|instruction)?\s*:\s*(?:you|ignore|new|from now|the (?:assistant|ai|model)|forget|disregard|obey)`)

// reactLabel finds the labels of an agent's reasoning trace. Forged
// "Thought:" and "Observation:" lines try to make an agent believe it has
// already decided or seen something.
var reactLabel = regexp.MustCompile(`(?:^|\s)(thought|action input|action|observation|final answer)\s*:`)

// markdownImage finds markdown images; their URL is fetched when the
// reply is rendered, which leaks whatever the URL carries.
var markdownImage = regexp.MustCompile(`!\[[^\]\n]{0,200}\]\(\s*<?(https?://[^\s)>]+)`)

// dataParams are query keys that name the data an image URL would leak.
var dataParams = map[string]bool{
	"data": true, "d": true, "q": true, "secret": true, "key": true, "token": true,
	"prompt": true, "notes": true, "history": true, "conversation": true,
	"content": true, "info": true, "msg": true, "text": true, "payload": true,
	"user": true, "email": true, "leak": true, "exfil": true, "p": true, "x": true,
}

// scanMarkers looks for format and tool injection markers in folded text.
func scanMarkers(folded string, hits map[string]bool) {
	for _, m := range chatMarkers {
		if strings.Contains(folded, m) {
			hits[ruleFormatMarker] = true
			break
		}
	}
	if !hits[ruleFormatMarker] && forgedSystemLine(folded) {
		hits[ruleFormatMarker] = true
	}
	if strings.Contains(folded, "thought") || strings.Contains(folded, "observation") || strings.Contains(folded, "action input") {
		labels := map[string]bool{}
		for _, m := range reactLabel.FindAllStringSubmatch(folded, -1) {
			labels[m[1]] = true
		}
		if len(labels) >= 2 && (labels["thought"] || labels["observation"] || labels["action input"]) {
			hits[ruleReActForgery] = true
		}
	}
	if strings.Contains(folded, "![") {
		for _, m := range markdownImage.FindAllStringSubmatch(folded, -1) {
			if urlCarriesData(m[1]) {
				hits[ruleImageExfil] = true
				break
			}
		}
	}
}

// forgedSystemLine reports whether a line of folded text poses as a
// system turn: a line that starts like one ("system: you ..."), or a
// markdown heading naming a chat role (see forgedRoleHeading).
func forgedSystemLine(folded string) bool {
	var h roleHeadings
	for line := range strings.Lines(folded) {
		if h.next(line) {
			return true
		}
		line = strings.TrimLeft(line, " #")
		if len(line) < 4 || !strings.Contains(line, ":") {
			continue
		}
		switch line[:3] {
		case "sys", "adm", "dev":
			if systemLine.MatchString(line) {
				return true
			}
		}
	}
	return false
}

// roleHeading is a markdown heading that is nothing but a chat role, the
// way chat transcripts and prompt templates mark turns ("### System").
var roleHeading = regexp.MustCompile(`^#{1,6}\s*(system|developer|admin|administrator|user|human|assistant)(?:\s+(?:prompt|message|instructions?|turn))?\s*:?\s*$`)

// addressesReader matches the start of a line that speaks to the model.
var addressesReader = regexp.MustCompile(`^(?:you|your|ignore|disregard|forget|new|from now|the (?:assistant|ai|model)|obey|always|never|do not|don't|as an? (?:ai|assistant|language model))\b`)

// roleHeadings follows the lines of a text for forged turns: a system or
// developer heading whose next line speaks to the model, or headings of
// two different roles (a made-up conversation). A heading named "System"
// over ordinary text, in a mail about some system, is neither.
type roleHeadings struct {
	roles   map[string]bool
	pending bool // the last line was a system or developer heading
}

// next reads one line and reports whether the headings so far forge a turn.
func (h *roleHeadings) next(line string) bool {
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	pending := h.pending
	h.pending = false
	if line[0] != '#' {
		return pending && addressesReader.MatchString(line)
	}
	m := roleHeading.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	role := m[1]
	switch role {
	case "system", "developer", "admin", "administrator":
		h.pending = true
		role = "system"
	case "human":
		role = "user"
	}
	if h.roles == nil {
		h.roles = map[string]bool{}
	}
	h.roles[role] = true
	return len(h.roles) >= 2
}

// urlCarriesData reports whether an image URL looks built to carry data
// out: a template placeholder, a query key naming data, or a long value.
func urlCarriesData(raw string) bool {
	if strings.ContainsAny(raw, "{}[]$<>") || strings.Contains(raw, "%s") {
		return true
	}
	u, err := url.Parse(raw)
	if err != nil {
		return true // a URL that does not parse is not an ordinary image
	}
	for key, values := range u.Query() {
		for _, v := range values {
			if dataParams[key] && v != "" || len(v) >= 40 || strings.Contains(v, "here") {
				return true
			}
		}
	}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if len(seg) >= 60 {
			return true
		}
	}
	return false
}
