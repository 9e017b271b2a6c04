package email

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/emersion/go-smtp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/tools/email/smtptest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// newTool builds the email tool against srv (nil: no server) with its log
// captured.
func newTool(t *testing.T, srv *smtptest.Server, extra string) (tool.Tool, *tool.Deps, *bytes.Buffer) {
	t.Helper()
	d := tooltest.Deps(t)
	logs := &bytes.Buffer{}
	d.Log = zerolog.New(logs)
	body := "from: \"Clawbridge Robot <robot@example.org>\""
	if srv != nil {
		body = srv.Config()
		t.Setenv("TEST_SMTP_PASSWORD", srv.Password)
	}
	if extra != "" {
		body += "\n" + extra
	}
	tooltest.ConfigSection(t, d, "email", body)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Config.SectionProblems(); len(p) > 0 {
		t.Fatal(p)
	}
	return tl, d, logs
}

func draftArgs(d *tool.Deps, t *testing.T) map[string]any {
	ws := d.Sandbox.Root()
	tooltest.WriteFile(t, filepath.Join(ws, "report.pdf"), []byte("%PDF-1.4\n% a small pdf\n%%EOF\n"))
	tooltest.WriteFile(t, filepath.Join(ws, "数据.csv"), []byte("月份,销售额\n1月,100\n"))
	return map[string]any{
		"action": "draft", "to": []any{"张三 <zhang@example.org>", "bob@example.com"}, "cc": []any{"Zoë Müller <zoe@example.de>"},
		"subject": "季度报告 Q3 — résumé", "text": "# Hello 你好\n\nThe **numbers** are in.\n\n- one\n- two\n",
		"attachments": []any{"report.pdf", "数据.csv"},
	}
}

func TestEmail_DraftIsRFC5322WithEncodedHeadersAlternativesAndAttachments(t *testing.T) {
	tl, d, _ := newTool(t, nil, "")
	res := tooltest.OK(t, tl, draftArgs(d, t))
	data := res.Data.(map[string]any)
	raw := tooltest.ReadFile(t, filepath.Join(d.Sandbox.Root(), data["path"].(string)))
	if !strings.HasSuffix(data["path"].(string), ".eml") || res.Files[0].MIME != "message/rfc822" {
		t.Fatalf("draft saved as %v", data["path"])
	}
	head := string(raw[:bytes.Index(raw, []byte("\r\n\r\n"))])
	if strings.Contains(head, "季度") || strings.Contains(head, "张三") || !strings.Contains(head, "=?UTF-8?") {
		t.Fatalf("UTF-8 headers not RFC 2047 encoded:\n%s", head)
	}
	// Parse it back with the standard library only.
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	to, _ := msg.Header.AddressList("To")
	cc, _ := msg.Header.AddressList("Cc")
	if subj != "季度报告 Q3 — résumé" || len(to) != 2 || to[0].Name != "张三" || cc[0].Name != "Zoë Müller" {
		t.Fatalf("headers: subject %q to %v cc %v", subj, to, cc)
	}
	ct, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if ct != "multipart/mixed" {
		t.Fatalf("top type %s", ct)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var types, files []string
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		pct, pparams, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if pct == "multipart/alternative" {
			ar := multipart.NewReader(p, pparams["boundary"])
			for {
				ap, err := ar.NextPart()
				if err == io.EOF {
					break
				}
				body, _ := io.ReadAll(ap)
				act, _, _ := mime.ParseMediaType(ap.Header.Get("Content-Type"))
				types = append(types, act)
				if act == "text/html" && !strings.Contains(string(body), "<strong>numbers</strong>") {
					t.Fatalf("html part: %s", body)
				}
				if act == "text/plain" && !strings.Contains(string(body), "The **numbers** are in.") {
					t.Fatalf("text part: %s", body)
				}
			}
			continue
		}
		name, _ := new(mime.WordDecoder).DecodeHeader(p.FileName()) // RFC 2047 inside the parameter, as mail clients write it
		files = append(files, name+" "+pct)
	}
	if strings.Join(types, ",") != "text/plain,text/html" {
		t.Fatalf("alternatives %v", types)
	}
	if strings.Join(files, ";") != "report.pdf application/pdf;数据.csv text/csv" {
		t.Fatalf("attachments %v", files)
	}
	atts := data["attachments"].([]map[string]any)
	if len(atts) != 2 || atts[0]["size"].(int64) != 29 {
		t.Fatalf("preview attachments %v", atts)
	}
}

func TestEmail_SendDeliversTheDraftByteForByteOverSTARTTLS(t *testing.T) {
	for _, auth := range []string{"plain", "login"} {
		t.Run(auth, func(t *testing.T) {
			srv := smtptest.Start(t)
			srv.Auth = auth
			tl, d, _ := newTool(t, srv, "")
			res := tooltest.OK(t, tl, draftArgs(d, t))
			path := res.Data.(map[string]any)["path"].(string)
			raw, _ := os.ReadFile(filepath.Join(d.Sandbox.Root(), path))
			res = tooltest.OK(t, tl, map[string]any{"action": "send", "path": path})
			got := srv.Mails()
			if len(got) != 1 || !bytes.Equal(got[0].Data, raw) {
				t.Fatalf("received %d mails; same bytes: %v", len(got), len(got) == 1 && bytes.Equal(got[0].Data, raw))
			}
			if got[0].From != "robot@example.org" || strings.Join(got[0].To, ",") != "zhang@example.org,bob@example.com,zoe@example.de" {
				t.Fatalf("envelope %s -> %v", got[0].From, got[0].To)
			}
			if srv.UsedTLS()[0] != true || !strings.EqualFold(srv.AuthMechs()[0], auth) {
				t.Fatalf("auth over TLS %v with %v", srv.UsedTLS(), srv.AuthMechs())
			}
			if res.Data.(map[string]any)["status"] != "sent" {
				t.Fatalf("result %v", res.Data)
			}
		})
	}
}

func TestEmailIdempotency_RetriedSendIsDeliveredOnce(t *testing.T) {
	srv := smtptest.Start(t)
	tl, d, _ := newTool(t, srv, "")
	res := tooltest.OK(t, tl, draftArgs(d, t))
	path := res.Data.(map[string]any)["path"].(string)
	for i := 0; i < 3; i++ {
		res := tooltest.OK(t, tl, map[string]any{"action": "send", "path": path})
		want := "sent"
		if i > 0 {
			want = "already_sent"
		}
		if s := res.Data.(map[string]any)["status"]; s != want {
			t.Fatalf("send %d: status %v", i, s)
		}
	}
	// Fields: the same message twice is one send; a new key sends again.
	fields := map[string]any{"action": "send", "to": []any{"bob@example.com"}, "subject": "hi", "text": "once"}
	for i := 0; i < 2; i++ {
		if _, err := tooltest.Run(t, tl, fields); err != nil {
			t.Fatal(err)
		}
	}
	fields["idempotency_key"] = "cron:job-7:2025-06-01T08:00:00Z"
	for i := 0; i < 2; i++ {
		if _, err := tooltest.Run(t, tl, fields); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(srv.Mails()); n != 3 {
		t.Fatalf("%d mails delivered, want 3 (draft once, fields once, new key once)", n)
	}
}

func TestEmailSecrets_WrongPasswordIsRefusedWithoutShowingIt(t *testing.T) {
	srv := smtptest.Start(t)
	tl, _, logs := newTool(t, srv, "")
	t.Setenv("TEST_SMTP_PASSWORD", "wrong-Pa55-guess")
	args := map[string]any{"action": "send", "to": []any{"bob@example.com"}, "subject": "hi", "text": "secret body text"}
	_, err := tooltest.Run(t, tl, args)
	te := tooltest.ToolError(t, err, tool.CodeDenied)
	if !strings.Contains(te.Message, "refused the login") {
		t.Fatalf("error %v", te)
	}
	// Nothing went, so the same call may be retried and goes once.
	t.Setenv("TEST_SMTP_PASSWORD", srv.Password)
	res, err := tooltest.Run(t, tl, args)
	if err != nil || res.Data.(map[string]any)["status"] != "sent" {
		t.Fatalf("retry after fixing the password: %v %v", res, err)
	}
	out, _ := json.Marshal(res.Data)
	for _, s := range []string{srv.Password, "wrong-Pa55-guess"} {
		if strings.Contains(te.Error()+te.Hint+string(out)+logs.String(), s) {
			t.Fatalf("password %q leaked", s)
		}
	}
	if strings.Contains(logs.String(), "secret body text") || !strings.Contains(logs.String(), `"recipients":1`) || !strings.Contains(logs.String(), `"message_sha256"`) {
		t.Fatalf("audit line: %s", logs)
	}
}

func TestEmail_RefusedRecipientSendsNothing(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Refuse("nobody@example.com")
	tl, _, _ := newTool(t, srv, "")
	_, err := tooltest.Run(t, tl, map[string]any{"action": "send", "to": []any{"bob@example.com", "nobody@example.com"}, "subject": "hi", "text": "x"})
	te := tooltest.ToolError(t, err, tool.CodeFailed)
	if !strings.Contains(te.Message, "refused the recipient nobody@example.com") || !strings.Contains(te.Message, "550") {
		t.Fatalf("error %v", te)
	}
	if n := len(srv.Mails()); n != 0 {
		t.Fatalf("%d mails delivered", n)
	}
}

func TestEmailIdempotency_ConnectionDroppedMidDataMayHaveBeenSentAndIsNotRetried(t *testing.T) {
	srv := smtptest.Start(t)
	srv.DropData(true)
	tl, _, _ := newTool(t, srv, "")
	args := map[string]any{"action": "send", "to": []any{"bob@example.com"}, "subject": "hi", "text": strings.Repeat("long body line\n", 2000)}
	_, err := tooltest.Run(t, tl, args)
	te := tooltest.ToolError(t, err, tool.CodeFailed)
	if !strings.Contains(te.Message, "may have been sent") || !strings.Contains(te.Hint, "do not send again") {
		t.Fatalf("error %v", te)
	}
	srv.DropData(false)
	_, err = tooltest.Run(t, tl, args)
	te = tooltest.ToolError(t, err, tool.CodeFailed)
	if !strings.Contains(te.Message, "may have been sent") || len(srv.Mails()) != 0 {
		t.Fatalf("the retry was sent: %v, %d mails", te, len(srv.Mails()))
	}
	args["idempotency_key"] = "user-says-send-anyway"
	if _, err := tooltest.Run(t, tl, args); err != nil || len(srv.Mails()) != 1 {
		t.Fatalf("a new key: %v, %d mails", err, len(srv.Mails()))
	}
}

func TestEmail_RecipientsCheckedForSyntaxAndAllowList(t *testing.T) {
	tl, _, _ := newTool(t, nil, "allow_recipients: [example.org, boss@corp.example]")
	for _, tc := range []struct {
		to   string
		code string
	}{
		{"not an address", tool.CodeInvalid},
		{"a@localhost", tool.CodeInvalid},
		{"x@evil.example", tool.CodeDenied},
		{"someone@corp.example", tool.CodeDenied},
	} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "draft", "to": []any{tc.to}, "subject": "s", "text": "t"})
		tooltest.ToolError(t, err, tc.code)
	}
	for _, ok := range []string{"a@example.org", "b@mail.example.org", "Boss <BOSS@corp.example>"} {
		if _, err := tooltest.Run(t, tl, map[string]any{"action": "draft", "to": []any{ok}, "subject": "s", "text": "t", "overwrite": true}); err != nil {
			t.Fatalf("%s: %v", ok, err)
		}
	}
}

func TestEmail_PreviewShowsRecipientsSubjectAndAttachments(t *testing.T) {
	srv := smtptest.Start(t)
	tl, d, _ := newTool(t, srv, "")
	res := tooltest.OK(t, tl, draftArgs(d, t))
	p, err := preview(t, tl, map[string]any{"action": "send", "path": res.Data.(map[string]any)["path"]})
	if err != nil {
		t.Fatal(err)
	}
	pdf := fmt.Sprintf("%x", sha256.Sum256([]byte("%PDF-1.4\n% a small pdf\n%%EOF\n")))
	for _, want := range []string{"张三 <zhang@example.org>", "bob@example.com", "cc Zoë Müller <zoe@example.de>", `subject "季度报告 Q3 — résumé"`,
		"attachment report.pdf (application/pdf, 29 bytes, sha256 " + pdf + ")", "attachment 数据.csv (text/csv", "The **numbers** are in.",
		"HTML part:", "<p>The <strong>numbers</strong> are in.</p>"} {
		if !strings.Contains(p, want) {
			t.Fatalf("preview lacks %q:\n%s", want, p)
		}
	}
	if len(srv.Mails()) != 0 {
		t.Fatal("preview sent mail")
	}
}

// preview runs the send action's preview on args, as the server does
// before it asks the person.
func preview(t *testing.T, tl tool.Tool, args map[string]any) (string, error) {
	t.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tl.Action("send")
	return a.Preview(t.Context(), c)
}

// realDraft is a tool sending as from, with the test message name copied
// into the workspace as a draft.
func realDraft(t *testing.T, srv *smtptest.Server, from, name string) (tool.Tool, string) {
	t.Helper()
	d := tooltest.Deps(t)
	t.Setenv("TEST_SMTP_PASSWORD", srv.Password)
	tooltest.ConfigSection(t, d, "email", strings.Replace(srv.Config(), `from: "Clawbridge Robot <robot@example.org>"`, "from: "+from, 1))
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	raw := tooltest.ReadFile(t, filepath.Join("testdata", name))
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "outputs", name), raw)
	return tl, "outputs/" + name
}

// TestEmailPreview_RealMessageShowsReplyToAndHTML: a real message (from
// imap_tools' tests) whose only body is an HTML part with a link and which
// sends replies elsewhere with Reply-To: the preview shows both, and every
// part Python's email package finds in it.
func TestEmailPreview_RealMessageShowsReplyToAndHTML(t *testing.T) {
	srv := smtptest.Start(t)
	tl, path := realDraft(t, srv, "abhijit.862153drinnan@datavalet.com", "html_only_reply_to.eml")
	p, err := preview(t, tl, map[string]any{"action": "send", "path": path})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"to cvs@bruce-guenter.dyndns.org, cc rait@bruce-guenter.dyndns.org",
		`Reply-To: "chianfong cuthbert" <abhijit.862153drinnan@datavalet.com>`, "HTML part:",
		`<a href="http://www.lenxzc.com/index2.php?refid=malx">Approval Form</a>`} {
		if !strings.Contains(p, want) {
			t.Fatalf("preview lacks %q:\n%s", want, p)
		}
	}
	// A second reader: Python's email package.
	py := tooltest.NeedProgram(t, "python3")
	out, err := exec.Command(py, "-c", `import email, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read())
print(m["Reply-To"])
for part in m.walk():
    if not part.is_multipart():
        print(part.get_content_type(), part.get_payload().strip().splitlines()[-1])`, filepath.Join("testdata", "html_only_reply_to.eml")).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if !strings.Contains(p, "Reply-To: "+lines[0]) || len(lines) != 2 {
		t.Fatalf("python reads %q; preview:\n%s", lines, p)
	}
	for _, l := range lines[1:] {
		ct, last, _ := strings.Cut(l, " ")
		if ct != "text/html" || !strings.Contains(p, last) {
			t.Fatalf("python finds the part %q; preview:\n%s", l, p)
		}
	}
}

// TestEmailPreview_RepeatedHeadersRefused: a real message with two To, Cc,
// Bcc and Reply-To headers each is refused before anyone is asked: the
// preview could show one while a mail client shows the other.
func TestEmailPreview_RepeatedHeadersRefused(t *testing.T) {
	srv := smtptest.Start(t)
	tl, path := realDraft(t, srv, "kaukinvk@yandex.ru", "double_fields.eml")
	_, err := preview(t, tl, map[string]any{"action": "send", "path": path})
	te := tooltest.ToolError(t, err, tool.CodeInvalid)
	if !strings.Contains(te.Message, "2 Reply-To headers") {
		t.Fatalf("error %v", te)
	}
	if len(srv.Mails()) != 0 {
		t.Fatal("mail sent")
	}
}

// TestEmailPreview_FIFOsAreRefusedNotWaitedOn: a FIFO in place of a draft
// or an attachment is refused at once; nothing waits for a writer.
func TestEmailPreview_FIFOsAreRefusedNotWaitedOn(t *testing.T) {
	srv := smtptest.Start(t)
	tl, d, _ := newTool(t, srv, "")
	ws := d.Sandbox.Root()
	for _, name := range []string{"outputs/pipe.eml", "pipe.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755)
		if err := syscall.Mkfifo(filepath.Join(ws, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := preview(t, tl, map[string]any{"action": "send", "path": "outputs/pipe.eml"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	_, err = preview(t, tl, map[string]any{"action": "send", "to": []any{"a@example.org"}, "subject": "s", "text": "t", "attachments": []any{"pipe.txt"}})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestEmail_ListAndDeleteDraftToTrash(t *testing.T) {
	tl, d, _ := newTool(t, nil, "")
	res := tooltest.OK(t, tl, draftArgs(d, t))
	path := res.Data.(map[string]any)["path"].(string)
	res = tooltest.OK(t, tl, map[string]any{"action": "list_drafts"})
	list := res.Data.(map[string]any)["drafts"].([]map[string]any)
	if len(list) != 1 || list[0]["subject"] != "季度报告 Q3 — résumé" || list[0]["attachments"] != 2 {
		t.Fatalf("list %v", list)
	}
	res = tooltest.OK(t, tl, map[string]any{"action": "delete_draft", "path": path})
	id := res.Data.(map[string]any)["trash_id"].(string)
	if _, err := os.Stat(filepath.Join(d.Sandbox.Root(), path)); !os.IsNotExist(err) {
		t.Fatal("draft still there")
	}
	if _, err := os.Stat(filepath.Join(d.Sandbox.TrashDir(), id, "data")); err != nil {
		t.Fatalf("not in the trash: %v", err)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "delete_draft", "path": "report.pdf"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestEmail_SendWithoutServerSaysWhatToConfigure(t *testing.T) {
	tl, _, _ := newTool(t, nil, "")
	_, err := tooltest.Run(t, tl, map[string]any{"action": "send", "to": []any{"a@example.org"}, "subject": "s", "text": "t"})
	te := tooltest.ToolError(t, err, tool.CodeUnavailable)
	if !strings.Contains(te.Hint, "tools.email.host") {
		t.Fatal(te)
	}
}

// TestEmailIdempotency_KeyOfAnotherMessageIsNotAlreadySent: a key that
// delivered one message, given with another, never answers "already sent"
// for the message that was not sent: it is refused, and says so.
func TestEmailIdempotency_KeyOfAnotherMessageIsNotAlreadySent(t *testing.T) {
	srv := smtptest.Start(t)
	tl, _, _ := newTool(t, srv, "")
	first := map[string]any{"action": "send", "to": []any{"bob@example.com"}, "subject": "invoice", "text": "the first", "idempotency_key": "k-1"}
	if res, err := tooltest.Run(t, tl, first); err != nil || res.Data.(map[string]any)["status"] != "sent" {
		t.Fatalf("first send: %v %v", res, err)
	}
	other := map[string]any{"action": "send", "to": []any{"carol@example.com"}, "subject": "other", "text": "never sent", "idempotency_key": "k-1"}
	res, err := tooltest.Run(t, tl, other)
	if err == nil {
		t.Fatalf("another message under a used key answered %v", res.Data)
	}
	te := tooltest.ToolError(t, err, tool.CodeInvalid)
	if !strings.Contains(te.Message, "another message") || !strings.Contains(te.Message, "not sent") {
		t.Fatalf("error %v", te)
	}
	// The first message again is a retry: already sent, not sent twice.
	if res, err := tooltest.Run(t, tl, first); err != nil || res.Data.(map[string]any)["status"] != "already_sent" {
		t.Fatalf("retry of the first: %v %v", res, err)
	}
	if got := srv.Mails(); len(got) != 1 || got[0].To[0] != "bob@example.com" {
		t.Fatalf("%d mails delivered", len(got))
	}
}

// TestEmailIdempotency_TemporaryRefusalDoesNotBlockRetry: a server that
// answers the end of the data with 451 accepted nothing; the same call
// later sends, once.
func TestEmailIdempotency_TemporaryRefusalDoesNotBlockRetry(t *testing.T) {
	srv := smtptest.Start(t)
	srv.ReplyToData(&smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"})
	tl, _, _ := newTool(t, srv, "")
	args := map[string]any{"action": "send", "to": []any{"bob@example.com"}, "subject": "hi", "text": "after a 451"}
	_, err := tooltest.Run(t, tl, args)
	te := tooltest.ToolError(t, err, tool.CodeUnavailable)
	if !strings.Contains(te.Message, "451") || strings.Contains(te.Message, "may have been sent") {
		t.Fatalf("error %v", te)
	}
	srv.ReplyToData(nil)
	for i, want := range []string{"sent", "already_sent"} {
		res, err := tooltest.Run(t, tl, args)
		if err != nil || res.Data.(map[string]any)["status"] != want {
			t.Fatalf("retry %d: %v %v", i, res, err)
		}
	}
	if n := len(srv.Mails()); n != 1 {
		t.Fatalf("%d mails delivered, want 1", n)
	}
}
