// Package email is the `email` tool: draft saves an RFC 5322 message as an
// .eml file in the workspace (UTF-8 subject and names encoded, a plain-text
// and an HTML alternative from Markdown, workspace files attached with their
// MIME types) and previews it; list_drafts and delete_draft (to the trash)
// manage drafts; send delivers a draft, or a message given as fields, over
// SMTP (STARTTLS or implicit TLS, PLAIN or LOGIN auth, the password from the
// environment variable tools.email.password_env).
//
// send is `high`: the confirmation shows recipients, subject, every other
// header, each attachment's type, size and sha256, the text and the HTML
// part; the message it read is the one delivered, byte for byte, whatever
// happens to the files meanwhile. An idempotency key (given, or derived
// from the draft's bytes or the fields) is claimed in the store before the
// SMTP session and its outcome, with the message's digest, recorded before
// the call returns (internal/sendonce): a retried send goes out once, one
// that broke after DATA began is reported as "may have been sent", never
// resent, one the server refused may be retried, and a key used for
// another message is refused rather than answered "already sent".
// A cron job that sends passes idempotency_key "cron:<job>:<scheduled time>"
// so each scheduled time sends once.
//
// It does not read mail (no IMAP), keep a Sent folder, or send Bcc.
package email

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/mail"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/sendonce"
	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type emailTool struct {
	cfg  Config
	from *mail.Address // parsed cfg.From; nil when unset
	sb   *sandbox.Sandbox
	once *sendonce.Store
	log  zerolog.Logger
	now  func() time.Time
}

// New builds the email tool from the tools.email section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "email", Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	e := &emailTool{cfg: cfg, sb: d.Sandbox, log: d.Log, now: time.Now}
	if cfg.From != "" {
		e.from, _ = mail.ParseAddress(cfg.From)
	}
	if d.Store != nil {
		once, err := sendonce.Open(d.Store)
		if err != nil {
			return tool.Tool{}, err
		}
		e.once = once
	}
	fields := []tool.Param{
		{Name: "to", Type: tool.Array, Items: &tool.Param{Name: "address", Type: tool.String, Description: "name@example.org or Name <name@example.org>"}, Description: "Recipients."},
		{Name: "cc", Type: tool.Array, Items: &tool.Param{Name: "address", Type: tool.String}},
		{Name: "subject", Type: tool.String, Description: "Any language."},
		{Name: "text", Type: tool.String, Private: true, Description: "Body in Markdown; sent as plain text and as HTML."},
		{Name: "attachments", Type: tool.Array, Items: &tool.Param{Name: "path", Type: tool.String}, Description: "Workspace files."},
	}
	required := func(ps []tool.Param, names ...string) []tool.Param {
		out := make([]tool.Param, len(ps))
		copy(out, ps)
		for i := range out {
			for _, n := range names {
				if out[i].Name == n {
					out[i].Required = true
				}
			}
		}
		return out
	}
	draftParams := append(required(fields, "to", "subject", "text"),
		tool.OutputParam("Default outputs/<subject>.eml."),
		tool.Overwrite)
	sendParams := append([]tool.Param{
		{Name: "path", Type: tool.String, Description: "A draft .eml to send as saved; or give to, subject and text instead."},
		{Name: "idempotency_key", Type: tool.String, Description: "Same key, same send: a retry with it never sends twice (default: derived from the message)."},
	}, fields...)
	return tool.Tool{
		Name:  "email",
		Title: "Email",
		Description: "Write and send email: draft an .eml (Markdown body, attachments from the workspace) with a preview, " +
			"list and delete drafts, send a draft or a message over SMTP after the user confirms; a retried send goes out once.",
		Actions: []tool.Action{
			{Name: "draft", Description: "save an .eml draft and preview it", Level: tool.Write, Timeout: tool.Fast, Params: draftParams, Handler: e.draft},
			{Name: "list_drafts", Description: ".eml drafts with recipients and subject", Level: tool.Read, Timeout: tool.Fast,
				Params: []tool.Param{{Name: "path", Type: tool.String, Description: "Folder to list (default outputs)."}}, Handler: e.listDrafts},
			{Name: "delete_draft", Description: "to the trash (file restore brings it back)", Level: tool.Write, Timeout: tool.Fast,
				Params: []tool.Param{{Name: "path", Type: tool.String, Required: true, Description: "The draft .eml."}}, Handler: e.deleteDraft},
			{Name: "send", Description: "a draft or a message over SMTP (the user confirms)", Level: tool.High, Timeout: tool.Normal,
				Params: sendParams, Handler: e.send, Preview: e.preview},
		},
		OpenWorld: true,
		Examples: []string{
			"draft an email to alice@example.com about the meeting",
			"send the report to my boss by email",
			"email this PDF to the team",
			"list my email drafts",
			"给张三发一封邮件",
			"写一封邮件草稿给客户",
			"把这份文件通过邮件发送出去",
		},
	}, nil
}

// fromFields builds a message from the call's fields.
func (e *emailTool) fromFields(c *tool.Call) (*message, error) {
	from := e.from
	if from == nil {
		from = &mail.Address{Address: "me@localhost.localdomain"}
	}
	to, err := parseRecipients("to", c.Args.Strings("to"), e.cfg.AllowRecipients)
	if err != nil {
		return nil, err
	}
	if len(to) == 0 {
		return nil, tool.Invalid("to", "to needs at least one recipient", `give "to": ["name@example.org"]`)
	}
	cc, err := parseRecipients("cc", c.Args.Strings("cc"), e.cfg.AllowRecipients)
	if err != nil {
		return nil, err
	}
	subject := strings.TrimSpace(c.Args.String("subject"))
	if subject == "" || strings.ContainsAny(subject, "\r\n") {
		return nil, tool.Invalid("subject", "subject must be one non-empty line", "give a short subject")
	}
	atts, err := e.loadAttachments("attachments", c.Args.Strings("attachments"))
	if err != nil {
		return nil, err
	}
	return &message{From: from, To: to, Cc: cc, Subject: subject, Markdown: c.Args.String("text"), Attachments: atts, Date: e.now()}, nil
}

func (e *emailTool) draft(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	m, err := e.fromFields(c)
	if err != nil {
		return nil, err
	}
	m.MessageID = newMessageID(m.From)
	out, err := tool.PlanOutput(e.sb, c.Args, tool.Output{Stem: stem(m.Subject), Exts: []string{".eml"}})
	if err != nil {
		return nil, err
	}
	raw, err := compose(m)
	if err != nil {
		return nil, err
	}
	f, err := out.Write(".eml", raw)
	if err != nil {
		return nil, err
	}
	p, err := parseMessage(raw)
	if err != nil {
		return nil, fmt.Errorf("draft does not parse back: %w", err)
	}
	data := previewData(p)
	data["path"] = filepath.ToSlash(e.sb.Rel(f.Path))
	data["size"] = len(raw)
	return &tool.Result{Summary: fmt.Sprintf("Saved the draft %s to %s.", data["path"], addressList(p.To)), Data: data,
		Files: []tool.File{{Path: f.Path, MIME: "message/rfc822", Size: f.Size}}}, nil
}

// stem is a file name from the subject.
func stem(subject string) string {
	var b strings.Builder
	for _, r := range subject {
		switch {
		case r == '/' || r == '\\' || r == ':' || r < ' ' || strings.ContainsRune(`*?"<>|`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
		if b.Len() > 60 {
			break
		}
	}
	s := strings.Trim(strings.TrimSpace(b.String()), ".")
	if s == "" {
		s = "draft"
	}
	return "draft_" + s
}

func previewData(p *parsed) map[string]any {
	atts := make([]map[string]any, len(p.Attachments))
	for i, a := range p.Attachments {
		atts[i] = map[string]any{"name": a.Name, "mime": a.MIME, "size": a.Size}
	}
	return map[string]any{"from": addressList([]*mail.Address{p.From}), "to": addressList(p.To), "cc": addressList(p.Cc), "subject": p.Subject,
		"date": p.Date, "message_id": p.MessageID, "text": p.Text, "attachments": atts}
}

// resolveDraft reads the .eml named in path.
func (e *emailTool) resolveDraft(path string) (string, []byte, error) {
	abs, err := e.sb.Resolve(path)
	if err != nil {
		return "", nil, tool.PathError("path", path, err)
	}
	if !strings.EqualFold(filepath.Ext(abs), ".eml") {
		return "", nil, tool.Invalid("path", fmt.Sprintf("%s is not an .eml draft", path), "give a draft saved by action=draft (list them with action=list_drafts)")
	}
	raw, err := tool.ReadRegular("path", "draft "+path, abs, e.maxDraft())
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeNotFound {
		te.Hint = "list drafts with action=list_drafts"
	}
	return abs, raw, err
}

// maxDraft bounds a draft read back: its attachments at their limit, a
// third larger in base64, and room for the text.
func (e *emailTool) maxDraft() int64 { return int64(e.cfg.MaxAttachmentMB)<<20*4/3 + 1<<20 }

func (e *emailTool) listDrafts(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	dir := c.Args.StringOr("path", "outputs")
	abs, err := e.sb.Resolve(dir)
	if err != nil {
		return nil, tool.PathError("path", dir, err)
	}
	var drafts []map[string]any
	err = e.sb.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, a missing outputs/ is an empty list
		}
		if d.IsDir() && e.sb.IsTrash(p) {
			return filepath.SkipDir
		}
		// Only regular files: a link is not followed out of the workspace,
		// a FIFO named x.eml does not hang the call.
		if !d.Type().IsRegular() || !strings.EqualFold(filepath.Ext(p), ".eml") || len(drafts) >= 500 {
			return nil
		}
		raw, err := sandbox.ReadRegular(p, e.maxDraft())
		if err != nil {
			return nil
		}
		entry := map[string]any{"path": filepath.ToSlash(e.sb.Rel(p)), "size": len(raw)}
		if m, err := parseMessage(raw); err == nil {
			entry["to"], entry["subject"], entry["date"], entry["attachments"] = addressList(m.To), m.Subject, m.Date, len(m.Attachments)
		} else {
			entry["error"] = "does not parse: " + err.Error()
		}
		drafts = append(drafts, entry)
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(drafts, func(i, j int) bool { return drafts[i]["path"].(string) < drafts[j]["path"].(string) })
	if drafts == nil {
		drafts = []map[string]any{}
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.", wording.Count(len(drafts), "draft", "drafts")), Data: map[string]any{"drafts": drafts}}, nil
}

func (e *emailTool) deleteDraft(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	abs, _, err := e.resolveDraft(c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	if err := e.sb.CheckWrite(abs); err != nil {
		return nil, tool.PathError("path", c.Args.String("path"), err)
	}
	rec, err := trash.Put(ctx, e.sb, abs, "email delete_draft")
	if err != nil {
		return nil, err
	}
	rel := filepath.ToSlash(e.sb.Rel(abs))
	return &tool.Result{Summary: fmt.Sprintf("Moved the draft %s to the trash.", rel),
		Data: map[string]any{"path": rel, "trash_id": rec.ID, "restore": "file action=restore id=" + rec.ID}}, nil
}

// outgoing is a message ready to send: its bytes, envelope and key.
type outgoing struct {
	raw    []byte
	parsed *parsed
	rcpts  []*mail.Address
	key    string
	// digest names the message's content: the draft's sha256, or for
	// fields the hash of what they hold (their Date aside). A key records
	// it, so it never answers for another message.
	digest string
	draft  string // workspace-relative draft path, "" for fields
}

// prepare builds the outgoing message of a send call, checking recipients
// against the allow-list (a draft's too: it may have been edited by hand).
func (e *emailTool) prepare(c *tool.Call) (*outgoing, error) {
	o := &outgoing{}
	if c.Args.Has("path") {
		for _, f := range []string{"to", "cc", "subject", "text", "attachments"} {
			if c.Args.Has(f) {
				return nil, tool.Invalid(f, "give either path (a draft) or the message fields, not both", "edit the draft with action=draft, or drop path")
			}
		}
		abs, raw, err := e.resolveDraft(c.Args.String("path"))
		if err != nil {
			return nil, err
		}
		o.raw, o.draft = raw, filepath.ToSlash(e.sb.Rel(abs))
		h := sha256.Sum256(raw)
		o.key, o.digest = "draft-"+hex.EncodeToString(h[:16]), hex.EncodeToString(h[:])
	} else {
		if !c.Args.Has("to") || !c.Args.Has("subject") || !c.Args.Has("text") {
			return nil, tool.Invalid("path", "send needs path (a draft) or to, subject and text", "draft first with action=draft, then send path")
		}
		m, err := e.fromFields(c)
		if err != nil {
			return nil, err
		}
		parts := []string{"fields", m.From.Address, addressList(m.To), addressList(m.Cc), m.Subject, m.Markdown}
		for _, a := range m.Attachments {
			h := sha256.Sum256(a.Data)
			parts = append(parts, a.Name, hex.EncodeToString(h[:]))
		}
		o.key = sendonce.Derive(parts...)
		o.digest = o.key
		_, domain, _ := strings.Cut(m.From.Address, "@")
		m.MessageID = o.key + "@" + domain // the same fields give the same Message-ID
		if o.raw, err = compose(m); err != nil {
			return nil, err
		}
	}
	if e.cfg.Host == "" || e.from == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "set tools.email.host, from, username and password_env in the config; draft still works",
			"no SMTP server is configured")
	}
	if k := strings.TrimSpace(c.Args.String("idempotency_key")); k != "" {
		o.key = k
	}
	p, err := parseMessage(o.raw)
	if err != nil {
		return nil, tool.Invalid("path", "the draft is not a valid message: "+err.Error(), "save it again with action=draft")
	}
	if p.From.Address != e.from.Address {
		return nil, tool.Errorf(tool.CodeDenied, "draft it again with action=draft: every message is sent from tools.email.from",
			"the draft's sender %s is not the configured sender %s", p.From.Address, e.from.Address)
	}
	var list []string
	for _, a := range append(append([]*mail.Address{}, p.To...), p.Cc...) {
		list = append(list, a.Address)
	}
	if o.rcpts, err = parseRecipients("to", list, e.cfg.AllowRecipients); err != nil {
		return nil, err
	}
	if len(o.rcpts) == 0 {
		return nil, tool.Invalid("to", "the message has no recipients", "add recipients with action=draft")
	}
	o.parsed = p
	return o, nil
}

// preview is what the user confirms: recipients, subject, every other
// header (Reply-To and the like change where answers go), every part with
// its size and sha256, the text and the HTML in full. The message it read
// is kept in c.Previewed and is the one send delivers.
func (e *emailTool) preview(ctx context.Context, c *tool.Call) (string, error) {
	o, err := e.prepare(c)
	if err != nil {
		return "", err
	}
	c.Previewed = o
	p := o.parsed
	var b strings.Builder
	fmt.Fprintf(&b, "to %s", addressList(p.To))
	if len(p.Cc) > 0 {
		fmt.Fprintf(&b, ", cc %s", addressList(p.Cc))
	}
	fmt.Fprintf(&b, "; subject %q", p.Subject)
	switch n := len(p.Attachments); n {
	case 0:
		b.WriteString("; no attachments")
	case 1:
		b.WriteString("; 1 attachment")
	default:
		fmt.Fprintf(&b, "; %d attachments", n)
	}
	fmt.Fprintf(&b, "\nfrom %s via %s", addressList([]*mail.Address{p.From}), e.cfg.Host)
	for _, h := range p.Headers {
		b.WriteString("\n" + h)
	}
	if o.draft != "" {
		fmt.Fprintf(&b, "\ndraft %s, %d bytes, sha256 %s", o.draft, len(o.raw), o.digest)
	}
	for _, a := range p.Attachments {
		name := a.Name
		if name == "" {
			name = "(a part without a name)"
		}
		h := sha256.Sum256(a.Data)
		fmt.Fprintf(&b, "\nattachment %s (%s, %d bytes, sha256 %s)", name, a.MIME, a.Size, hex.EncodeToString(h[:]))
	}
	fmt.Fprintf(&b, "\n\n%s", p.Text)
	if p.HTML != "" {
		fmt.Fprintf(&b, "\n\nHTML part:\n%s", p.HTML)
	}
	return b.String(), nil
}

func (e *emailTool) send(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	// A confirmed send delivers the message its preview read, never a
	// second read of a draft or an attachment that may have changed since.
	o, ok := c.Previewed.(*outgoing)
	if !ok {
		var err error
		if o, err = e.prepare(c); err != nil {
			return nil, err
		}
	}
	if e.once == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "", "no store: sends cannot be made idempotent")
	}
	h := sha256.Sum256(o.raw)
	hash := hex.EncodeToString(h[:])
	key := sendonce.Key("email", o.key)
	rec, fresh, err := e.once.Claim(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("idempotency record: %w", err)
	}
	data := map[string]any{"idempotency_key": o.key, "recipients": addressList(o.rcpts), "subject": o.parsed.Subject,
		"message_id": o.parsed.MessageID, "sha256": hash}
	if o.draft != "" {
		data["draft"] = o.draft
	}
	if !fresh {
		e.audit(o, hash, "duplicate:"+string(rec.State))
		if d := digestOf(rec.Answer); d != "" && d != o.digest {
			return nil, tool.Invalid("idempotency_key", fmt.Sprintf("the idempotency key %q belongs to another message (%s %s); this message was not sent",
				o.key, rec.State, rec.Updated.UTC().Format(time.RFC3339)), "give a new idempotency_key for a new message, or none")
		}
		switch rec.State {
		case sendonce.Sent:
			data["status"], data["server_answer"], data["already_sent_at"] = "already_sent", answerOf(rec.Answer), rec.Updated.UTC().Format(time.RFC3339)
			return &tool.Result{Summary: "Already sent with this idempotency key; not sent again.", Data: data}, nil
		case sendonce.Sending:
			return nil, tool.Errorf(tool.CodeFailed, "do not send again: check whether it arrived; to send it anyway, use a new idempotency_key",
				"a send with this idempotency key started at %s and never finished: it may have been sent", rec.Created.UTC().Format(time.RFC3339))
		default:
			return nil, mayHaveBeenSent("recorded " + rec.Updated.UTC().Format(time.RFC3339) + ": " + answerOf(rec.Answer))
		}
	}
	// The key holds the message's digest from now on, so a retry with the
	// same key can tell its own message from another one.
	if err := e.once.Finish(ctx, key, sendonce.Sending, record(o.digest, ""), 0); err != nil {
		return nil, fmt.Errorf("idempotency record: %w", err)
	}
	res := e.transmit(ctx, o.raw, o.rcpts)
	if err := e.once.Finish(ctx, key, res.State, record(o.digest, res.Answer), 0); err != nil {
		return nil, fmt.Errorf("idempotency record: %w", err)
	}
	e.audit(o, hash, string(res.State))
	if res.Err != nil {
		return nil, res.Err
	}
	data["status"], data["server_answer"] = "sent", res.Answer
	return &tool.Result{Summary: fmt.Sprintf("Sent %q to %s.", o.parsed.Subject, addressList(o.rcpts)), Data: data}, nil
}

// audit is the send's own log line: recipients count, message hash and
// outcome; never the body, the addresses or the password.
func (e *emailTool) audit(o *outgoing, hash, outcome string) {
	e.log.Info().Str("kind", "send").Str("tool", "email").Str("target", "smtp:"+e.cfg.Host).
		Int("recipients", len(o.rcpts)).Str("message_sha256", hash).Str("outcome", outcome).Msg("email send")
}

// record is the answer column of a key: the digest of its message, then
// the server's answer.
func record(digest, answer string) string { return "sha256:" + digest + " " + answer }

// digestOf and answerOf read a record back; a record written before keys
// held a digest has none and is taken as the same message.
func digestOf(rec string) string {
	if !strings.HasPrefix(rec, "sha256:") {
		return ""
	}
	d, _, _ := strings.Cut(strings.TrimPrefix(rec, "sha256:"), " ")
	return d
}

func answerOf(rec string) string {
	if !strings.HasPrefix(rec, "sha256:") {
		return rec
	}
	_, a, _ := strings.Cut(rec, " ")
	return a
}
