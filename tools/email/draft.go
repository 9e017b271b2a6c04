package email

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"path/filepath"
	"sort"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// message is what a draft is made of, before it becomes RFC 5322 bytes.
type message struct {
	From        *mail.Address
	To, Cc      []*mail.Address
	Subject     string
	Markdown    string // the body; the plain-text part is it as written
	Attachments []attachment
	MessageID   string // without angle brackets
	Date        time.Time
}

// attachment is a workspace file to attach.
type attachment struct {
	Name string // file name shown to the recipient
	Path string // absolute, resolved in the workspace ("" when parsed back)
	MIME string
	Size int64
	Data []byte
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM)) // raw HTML is escaped (goldmark's default)

// compose renders m as a multipart message: text/plain and text/html
// alternatives (the HTML from the Markdown), then the attachments. go-mail
// encodes the UTF-8 subject and names (RFC 2047) and the parts
// (quoted-printable text, base64 files) and ends lines in CRLF.
func compose(m *message) ([]byte, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.FromFormat(m.From.Name, m.From.Address); err != nil {
		return nil, tool.Invalid("from", err.Error(), "")
	}
	for _, a := range m.To {
		if err := msg.AddToFormat(a.Name, a.Address); err != nil {
			return nil, tool.Invalid("to", err.Error(), "")
		}
	}
	for _, a := range m.Cc {
		if err := msg.AddCcFormat(a.Name, a.Address); err != nil {
			return nil, tool.Invalid("cc", err.Error(), "")
		}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDateWithValue(m.Date)
	var html bytes.Buffer
	if err := markdown.Convert([]byte(m.Markdown), &html); err != nil {
		return nil, fmt.Errorf("markdown: %w", err)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Markdown)
	msg.AddAlternativeString(gomail.TypeTextHTML, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n"+html.String()+"</body></html>\n")
	for _, a := range m.Attachments {
		if err := msg.AttachReader(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(a.MIME))); err != nil {
			return nil, err
		}
	}
	var out bytes.Buffer
	if _, err := msg.WriteTo(&out); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	return out.Bytes(), nil
}

// loadAttachments reads the workspace files named in field, within max bytes
// together.
func (e *emailTool) loadAttachments(field string, paths []string) ([]attachment, error) {
	var out []attachment
	var total int64
	max := int64(e.cfg.MaxAttachmentMB) << 20
	for _, p := range paths {
		abs, err := e.sb.Resolve(p)
		if err != nil {
			return nil, tool.PathError(field, p, err)
		}
		// Read once, bounded by what is left of the budget: the bytes read
		// here are the ones previewed and sent.
		data, err := tool.ReadRegular(field, "attachment "+p, abs, max-total)
		if te, ok := tool.AsError(err); ok && te.Code == tool.CodeTooLarge {
			return nil, tool.Errorf(tool.CodeTooLarge, "attach fewer or smaller files, or share a link instead", "attachments exceed %d MB together (tools.email.max_attachment_mb)", e.cfg.MaxAttachmentMB)
		}
		if err != nil {
			return nil, err
		}
		total += int64(len(data))
		out = append(out, attachment{Name: filepath.Base(abs), Path: abs, MIME: tool.MIME(abs), Size: int64(len(data)), Data: data})
	}
	return out, nil
}

func newMessageID(from *mail.Address) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	_, domain, _ := strings.Cut(from.Address, "@")
	return hex.EncodeToString(b[:]) + "@" + domain
}

// parsed is a draft read back: what the preview and send need.
type parsed struct {
	From      *mail.Address
	To, Cc    []*mail.Address
	Subject   string
	Date      string
	MessageID string
	Text      string // the first text/plain part that is not an attachment
	HTML      string // the first text/html part that is not an attachment
	// Attachments are every other part: named files, and any part a
	// hand-edited draft carries besides its two bodies.
	Attachments []attachment
	// Headers are the top-level headers besides the ones above and the
	// MIME structure ("Reply-To: a@b.org"), decoded, sorted: each of them
	// goes out with the message, so the preview shows them.
	Headers []string
}

var wordDecoder = mime.WordDecoder{}

// shownElsewhere are the headers parsed holds in fields, or that only
// describe the MIME structure the preview shows part by part.
var shownElsewhere = map[string]bool{"From": true, "To": true, "Cc": true, "Subject": true, "Date": true, "Message-Id": true,
	"Mime-Version": true, "Content-Type": true, "Content-Transfer-Encoding": true}

// single are the headers RFC 5322 allows once: a second Subject or To is
// one a mail client may show instead of the first, so it is refused.
var single = []string{"From", "Sender", "Reply-To", "To", "Cc", "Bcc", "Subject", "Date", "Message-Id", "In-Reply-To", "References"}

// parseMessage reads an RFC 5322 message back with net/mail and
// mime/multipart: headers decoded, the text and HTML bodies, every other
// part with its name and decoded bytes.
func parseMessage(raw []byte) (*parsed, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	for _, h := range single {
		if len(msg.Header[h]) > 1 {
			return nil, fmt.Errorf("%d %s headers (a message has at most one)", len(msg.Header[h]), h)
		}
	}
	if msg.Header.Get("Bcc") != "" {
		return nil, errors.New("a Bcc header: send does not send Bcc, and the header would go to every recipient")
	}
	p := &parsed{Date: msg.Header.Get("Date"), MessageID: strings.Trim(msg.Header.Get("Message-Id"), "<>")}
	if p.Subject, err = wordDecoder.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return nil, fmt.Errorf("subject: %w", err)
	}
	if p.From, err = mail.ParseAddress(msg.Header.Get("From")); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	for _, h := range []struct {
		name string
		dst  *[]*mail.Address
	}{{"To", &p.To}, {"Cc", &p.Cc}} {
		if msg.Header.Get(h.name) == "" {
			continue
		}
		if *h.dst, err = msg.Header.AddressList(h.name); err != nil {
			return nil, fmt.Errorf("%s: %w", strings.ToLower(h.name), err)
		}
	}
	for name, values := range msg.Header {
		if shownElsewhere[name] {
			continue
		}
		for _, v := range values {
			if d, err := wordDecoder.DecodeHeader(v); err == nil {
				v = d
			}
			p.Headers = append(p.Headers, name+": "+v)
		}
	}
	sort.Strings(p.Headers)
	err = walkPart(msg.Header, msg.Body, p)
	return p, err
}

// walkPart sorts the leaf parts of one part into the bodies and the
// attachments.
func walkPart(h map[string][]string, body io.Reader, p *parsed) error {
	get := func(k string) string {
		if v := h[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	ct, params, err := mime.ParseMediaType(get("Content-Type"))
	if err != nil {
		ct = "text/plain"
	}
	if strings.HasPrefix(ct, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walkPart(part.Header, part, p); err != nil {
				return err
			}
		}
	}
	var r io.Reader = body
	switch strings.ToLower(get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, body)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	disp, dparams, _ := mime.ParseMediaType(get("Content-Disposition"))
	name, _ := wordDecoder.DecodeHeader(dparams["filename"])
	if name == "" {
		name, _ = wordDecoder.DecodeHeader(params["name"])
	}
	isFile := disp == "attachment" || name != ""
	switch {
	case ct == "text/plain" && !isFile && p.Text == "":
		p.Text = string(data)
	case ct == "text/html" && !isFile && p.HTML == "":
		p.HTML = string(data)
	default:
		p.Attachments = append(p.Attachments, attachment{Name: name, MIME: ct, Size: int64(len(data)), Data: data})
	}
	return nil
}

// addressList renders addresses for a preview.
func addressList(list []*mail.Address) string {
	s := make([]string, len(list))
	for i, a := range list {
		s[i] = a.Address
		if a.Name != "" { // unencoded: this is for people, not for a header
			s[i] = a.Name + " <" + a.Address + ">"
		}
	}
	return strings.Join(s, ", ")
}
