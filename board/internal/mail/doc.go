// Package mail turns stored mail into values the board can ingest: a MIME parser
// (Parse) and the Source interface that every kind of mailbox implements.
//
// The API, fixed for the ingest pipeline:
//
//	type Mail struct {
//		Ref         string    // id within its source: Maildir unique name (part before ":2,"),
//		                      // mbox byte offset of the "From " line (decimal), .eml file name,
//		                      // IMAP "<uidvalidity>:<uid>"
//		MessageID   string    // Message-ID without <>, "" when absent
//		InReplyTo   string    // without <>
//		References  []string  // without <>, in order
//		From        string    // "Name <addr>" as the header gives it, decoded (RFC 2047)
//		FromAddr    string    // bare lowercase address
//		To, Cc      []string  // bare lowercase addresses
//		Subject     string    // decoded
//		Date        time.Time // from RFC 2822; zero when absent or unparseable
//		Body        string    // text/plain preferred, else HTML reduced to readable text
//		Attachments []Attachment
//		Raw         []byte    // the original bytes (at most the raw limit); nil only when a source says so
//		Truncated     []string         // what was cut to a limit: "body", "to", "headers", ...
//		OriginalSizes map[string]int64 // the size before the cut, of those that have one
//	}
//	type Attachment struct{ Name string; Size int64; Type string }
//
//	func Parse(raw []byte) (Mail, error) // never panics; an error only when nothing usable is there
//	func ParseSized(raw []byte, size int64) (Mail, error) // raw is the first bytes of a mail size bytes long
//	func ReadFile(path string) (Mail, error) // reads at most MaxRaw of the file, then parses
//
//	type Source interface {
//		// Read calls fn for each message after the watermark `after` ("" = from the
//		// start), in order. fn gets the watermark to keep once that message is durable;
//		// an error from fn stops the read and is returned wrapped.
//		Read(ctx context.Context, after string, fn func(m Mail, watermark string) error) error
//		// Get returns one message by its Ref; ErrNotFound when it is gone.
//		Get(ctx context.Context, ref string) (Mail, error)
//	}
//
//	var ErrNotFound     // Get: the source no longer holds that message (errors.Is)
//	var ErrBadWatermark // Read: the watermark was not written by this kind of source
//
// Sources (each in its own package, all returning a mail.Source):
//
//	maildir.New(dir string)                  // dir holds new/ and cur/
//	mbox.New(path string)                    // an mboxrd file
//	emlfolder.New(dir string)                // a folder of *.eml files
//	imapsource.New(imapsource.Options{Host, Port, User, Password, Mailbox, TLS *tls.Config, Timeout})
//	                                         // TLS nil = system roots; Mailbox "" = INBOX
//
// Watermarks are opaque strings (JSON text inside), safe to store as a JSON string:
// Maildir and .eml folders keep the set of names taken (pruned to names still present),
// mbox the file's inode and the offset after the last whole message (a new inode
// restarts from the top), IMAP the UIDVALIDITY and the last UID (a new UIDVALIDITY
// restarts). A message that fails to parse is still delivered: Parse keeps what it can
// (Raw is always set), so a broken mail cannot stall a source.
//
// An mbox Ref is only an offset: after the file is rewritten, Get may find another
// message there, so a replay should check that the Message-ID is the one it expects.
package mail
