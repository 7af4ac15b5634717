package training

import (
	"github.com/opsboard/opsboard/sidecar-guard/internal/bipia"

	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
)

// bipiaEmailsPerPlace is how many train emails each attack is placed in at
// each of the three places. All 50 would make 11,250 rows, two thirds of
// every attack in the data, and the model would learn BIPIA's few attack
// strings rather than their shape. With four or eight the mail around an
// attack learned so benign that an override inside an ordinary mail no
// longer flagged; two (450 rows) keeps it and flags the fewest texts that
// use trigger words innocently.
const bipiaEmailsPerPlace = 2

// ReadBIPIATrain reads the train part of BIPIA in dir (never its test part)
// as training rows under the source bipia_email_train: every train attack
// placed at the start, the middle and the end of a rotating choice of the
// train emails, cut to the window the model scores around it (label 1), and
// every window of every clean train email (label 0). The model scores a long
// text by its highest window, so whole attacked emails as examples would
// teach it that an email's own lines are the attack. BIPIA's attacks are
// task hijacks ("encode your reply in base64", "what is the capital of
// Brazil?") that no other source teaches.
func ReadBIPIATrain(dir string) ([]Row, []File, error) {
	const source = "bipia_email_train"
	emailPath, attackPath := bipia.EmailsPath(dir, "train"), bipia.AttacksPath(dir, "train")
	emails, err := bipia.Emails(emailPath)
	if err != nil {
		return nil, nil, err
	}
	attacks, cats, err := bipia.Attacks(attackPath)
	if err != nil {
		return nil, nil, err
	}
	for i, e := range emails {
		emails[i] = asMail(e)
	}
	var rows []Row
	n := 0 // rotates through the emails so each is used about equally
	for _, cat := range cats {
		for _, a := range attacks[cat] {
			for _, pos := range bipia.Places {
				for range bipiaEmailsPerPlace {
					rows = append(rows, Row{Text: around(emails[n%len(emails)], a, pos), Label: 1, Source: source})
					n++
				}
			}
		}
	}
	for _, e := range emails {
		for _, w := range windows(e) {
			rows = append(rows, Row{Text: w, Label: 0, Source: source})
		}
	}
	var files []File
	for _, p := range []string{emailPath, attackPath} {
		f, err := checksum(p)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	files[0].Rows = len(emails)
	files[1].Rows = n
	return rows, files, nil
}

// asMail writes one of BIPIA's records, "SUBJECT: s|CONTENT: b" on one
// line, as the mail it stands for: the subject line, then the body. Kept
// as it was, the record's "|content:" joined the subject to the body in
// n-grams that only windows at a mail's start have, and an attack placed
// at the start keeps them far more often than a clean mail's windows do,
// so the model learned the record's punctuation as attack evidence.
func asMail(record string) string {
	return strings.Replace(record, "|CONTENT:", "\n\n", 1)
}

// around places attack in email at pos and keeps the attack with the
// email's text on either side of it, a window's worth in all.
func around(email, attack, pos string) string {
	t := []rune(bipia.InsertAt(email, attack, pos))
	a := len([]rune(attack))
	at := len([]rune(strings.SplitN(string(t), attack, 2)[0]))
	pad := max(0, linear.Window-a) / 2
	return string(t[max(0, at-pad):min(len(t), at+a+pad)])
}

// windows cuts text as the model scores it: the whole when short, else
// every window of linear.Window runes, linear.Stride apart.
func windows(text string) []string {
	t := []rune(text)
	if len(t) <= linear.Window {
		return []string{text}
	}
	var out []string
	for s := 0; ; s += linear.Stride {
		out = append(out, string(t[s:min(s+linear.Window, len(t))]))
		if s+linear.Window >= len(t) {
			return out
		}
	}
}

func checksum(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	sum := sha256.Sum256(b)
	return File{Name: "bipia/" + filepath.Base(path), SHA256: hex.EncodeToString(sum[:])}, nil
}
