package heuristic

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
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
// system turn. Only lines that start like one meet the expression.
func forgedSystemLine(folded string) bool {
	for line := range strings.Lines(folded) {
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

// minBase64 is the shortest run of base64 worth decoding: 32 characters
// carry 24 bytes, a short sentence.
const minBase64 = 32

// base64Texts returns the readable texts hidden in long base64 runs of s.
func base64Texts(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isBase64Byte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64Byte(s[j]) {
			j++
		}
		run := s[i:j]
		i = j
		for i < len(s) && s[i] == '=' {
			i++
		}
		if len(run) < minBase64 {
			continue
		}
		if text, ok := decodeBase64(run); ok {
			out = append(out, text)
		}
	}
	return out
}

func isBase64Byte(c byte) bool {
	return ('A' <= c && c <= 'Z') || ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') ||
		c == '+' || c == '/' || c == '-' || c == '_'
}

// decodeBase64 decodes an unpadded run in either alphabet and keeps it
// only when it reads as text with words.
func decodeBase64(run string) (string, bool) {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		if strings.ContainsAny(run, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	if len(run)%4 == 1 {
		run = run[:len(run)-1]
	}
	b, err := enc.DecodeString(run)
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	text := string(b)
	total, readable, spaces := 0, 0, 0
	for _, r := range text {
		total++
		switch {
		case r == ' ':
			spaces++
			readable++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r):
			readable++
		}
	}
	if total == 0 || readable*10 < total*9 || spaces < 2 {
		return "", false
	}
	return text, true
}
