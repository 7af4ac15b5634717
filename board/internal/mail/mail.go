package mail

import (
	"context"
	"errors"
	"time"
)

// Mail is one parsed message, ready for the board.
type Mail struct {
	// Ref is the message's id within its source (see the package doc).
	Ref string
	// MessageID is the Message-ID header without <>, "" when absent.
	MessageID string
	// InReplyTo is the first id of the In-Reply-To header, without <>.
	InReplyTo string
	// References lists the References header's ids without <>, in order.
	References []string
	// From is the sender as the header gives it, decoded: "Name <addr>".
	From string
	// FromAddr is the sender's bare address, lowercase.
	FromAddr string
	// To and Cc are bare lowercase addresses.
	To, Cc []string
	// Subject is the decoded subject.
	Subject string
	// Date is the Date header; zero when absent or unparseable.
	Date time.Time
	// Body is the text/plain part, else the HTML part reduced to readable text.
	Body string
	// HTML is the text/html part as sent, "" when there is none: the
	// guard reads the text it hides from a reader.
	HTML string
	// Attachments lists the attached files (their content is not kept).
	Attachments []Attachment
	// Raw holds the original bytes, for a replay (at most the raw limit).
	Raw []byte
	// Truncated names what was cut to a limit ("body", "to", "headers",
	// ...); OriginalSizes holds the size before the cut of those that
	// have one (bytes, characters or a count).
	Truncated     []string
	OriginalSizes map[string]int64
}

// Attachment describes one attached file.
type Attachment struct {
	Name string // file name, decoded; "" when the part gives none
	Size int64  // decoded size in bytes
	Type string // media type, e.g. "application/pdf"
}

// Source is one configured place to read mail from.
type Source interface {
	// Read calls fn for each message after the watermark after ("" means from the
	// start), in the source's order. fn receives the watermark to keep once the
	// message is durable; an error from fn stops the read and is returned.
	Read(ctx context.Context, after string, fn func(m Mail, watermark string) error) error
	// Get returns one message by its Ref, or an error wrapping ErrNotFound.
	Get(ctx context.Context, ref string) (Mail, error)
}

// ErrNotFound is returned by Get when the source no longer holds the message.
var ErrNotFound = errors.New("mail: message not found")

// ErrBadWatermark is returned by Read when the watermark was not written by that
// kind of source.
var ErrBadWatermark = errors.New("mail: bad watermark")
