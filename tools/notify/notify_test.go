package notify

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/sendonce"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// setup builds the notify tool with the given section, its env set, the
// fixture host allowed, its log captured and fast backoff.
func setup(t *testing.T, section string, env map[string]string) (tool.Tool, *notifier, *bytes.Buffer) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	d := tooltest.Deps(t, "127.0.0.1")
	logs := &bytes.Buffer{}
	d.Log = zerolog.New(logs)
	tooltest.ConfigSection(t, d, "notify", section)
	n, tl, err := build(d)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Config.SectionProblems(); len(p) > 0 {
		t.Fatal(p)
	}
	n.backoffBase = 10 * time.Millisecond
	return tl, n, logs
}

func send(t *testing.T, tl tool.Tool, args map[string]any) (*tool.Result, error) {
	t.Helper()
	a := map[string]any{"action": "send"}
	for k, v := range args {
		a[k] = v
	}
	return tooltest.Run(t, tl, a)
}

func mustSend(t *testing.T, tl tool.Tool, args map[string]any) map[string]any {
	t.Helper()
	res, err := send(t, tl, args)
	if err != nil {
		t.Fatal(err)
	}
	return res.Data.(map[string]any)
}

const fast = "min_interval: 0s\n"

func TestNotify_SlackWebhookFormatAndErrors(t *testing.T) {
	f := slackFixture(t, "XXXXtok")
	tl, _, _ := setup(t, fast+"targets:\n  - {name: team, kind: slack, url_env: SLACK_URL}\n  - {name: gone, kind: slack, url_env: SLACK_GONE}",
		map[string]string{"SLACK_URL": f.URL + "/services/T0/B0/XXXXtok", "SLACK_GONE": f.URL + "/services/T0/B0/revoked"})
	mustSend(t, tl, map[string]any{"target": "team", "text": "deploy <prod> done & green"})
	mustSend(t, tl, map[string]any{"target": "team", "format": "markdown", "title": "Deploy", "text": "## Result\n**all** green, see [log](https://ci.example.org/1)"})
	got := f.accepted()
	if len(got) != 2 || got[0]["text"] != "deploy &lt;prod&gt; done &amp; green" ||
		got[1]["text"] != "*Deploy*\n*Result*\n*all* green, see <https://ci.example.org/1|log>" {
		t.Fatalf("slack received %v", got)
	}
	before := f.count()
	_, err := send(t, tl, map[string]any{"target": "gone", "text": "x"})
	te := tooltest.ToolError(t, err, tool.CodeFailed)
	if !strings.Contains(te.Message, "HTTP 404") || !strings.Contains(te.Message, "no_service") || f.count() != before+1 {
		t.Fatalf("404 no_service: %v after %d requests", te, f.count()-before)
	}
}

func TestNotify_FeishuSignatureAndTimestampWindow(t *testing.T) {
	f := feishuFixture(t, "hooktok", "feishu-secret-1")
	tl, n, _ := setup(t, fast+"targets:\n  - {name: ops, kind: feishu, url_env: FS_URL, secret_env: FS_SECRET}\n  - {name: wrong, kind: feishu, url_env: FS_URL, secret_env: FS_BAD}",
		map[string]string{"FS_URL": f.URL + "/open-apis/bot/v2/hook/hooktok", "FS_SECRET": "feishu-secret-1", "FS_BAD": "not-the-secret"})
	mustSend(t, tl, map[string]any{"target": "ops", "text": "构建完成", "title": "CI"})
	mustSend(t, tl, map[string]any{"target": "ops", "text": "**加粗** 完成", "title": "CI", "format": "markdown"})
	got := f.accepted()
	if len(got) != 2 || got[0]["msg_type"] != "text" || got[0]["content"].(map[string]any)["text"] != "CI\n\n构建完成" {
		t.Fatalf("feishu text: %v", got)
	}
	card, _ := json.Marshal(got[1]["card"])
	if got[1]["msg_type"] != "interactive" || string(card) != `{"elements":[{"content":"**加粗** 完成","tag":"markdown"}],"header":{"title":{"content":"CI","tag":"plain_text"}}}` {
		t.Fatalf("feishu card: %s", card)
	}
	for name, setupCase := range map[string]func(){
		"clock two hours off":    func() { n.now = func() time.Time { return time.Now().Add(-2 * time.Hour) } },
		"wrong secret":           func() { n.now = time.Now },
		"clock 61 minutes ahead": func() { n.now = func() time.Time { return time.Now().Add(61 * time.Minute) } },
	} {
		setupCase()
		target := "ops"
		if name == "wrong secret" {
			target = "wrong"
		}
		before := f.count()
		_, err := send(t, tl, map[string]any{"target": target, "text": "t " + name})
		te := tooltest.ToolError(t, err, tool.CodeFailed)
		if !strings.Contains(te.Message, "code 19021") || !strings.Contains(te.Message, "sign match fail") || f.count() != before+1 {
			t.Fatalf("%s: %v (%d requests: a platform error must not be retried)", name, te, f.count()-before)
		}
	}
	n.now = func() time.Time { return time.Now().Add(-50 * time.Minute) } // inside the window
	mustSend(t, tl, map[string]any{"target": "ops", "text": "still in the hour"})
}

func TestNotify_DingTalkSignatureInURL(t *testing.T) {
	f := dingtalkFixture(t, "dtok", "SECdingtalk+/=secret")
	tl, n, _ := setup(t, fast+"targets:\n  - {name: dt, kind: dingtalk, url_env: DT_URL, secret_env: DT_SECRET}\n  - {name: bad, kind: dingtalk, url_env: DT_URL, secret_env: DT_BAD}",
		map[string]string{"DT_URL": f.URL + "/robot/send?access_token=dtok", "DT_SECRET": "SECdingtalk+/=secret", "DT_BAD": "SECother"})
	// Many timestamps so that signatures with + / = in base64 occur.
	for i := 0; i < 5; i++ {
		mustSend(t, tl, map[string]any{"target": "dt", "text": "第" + string(rune('1'+i)) + "条"})
		time.Sleep(3 * time.Millisecond)
	}
	mustSend(t, tl, map[string]any{"target": "dt", "text": "# 周报\n- 完成", "format": "markdown"})
	got := f.accepted()
	if len(got) != 6 || got[0]["msgtype"] != "text" || got[5]["msgtype"] != "markdown" || got[5]["markdown"].(map[string]any)["title"] != "周报" {
		t.Fatalf("dingtalk received %v", got)
	}
	_, err := send(t, tl, map[string]any{"target": "bad", "text": "x"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "code 310000") || !strings.Contains(te.Message, "sign not match") {
		t.Fatal(te)
	}
	n.now = func() time.Time { return time.Now().Add(90 * time.Minute) }
	_, err = send(t, tl, map[string]any{"target": "dt", "text": "y"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "invalid timestamp") {
		t.Fatal(te)
	}
}

func TestNotify_WeComSplitsWithinByteLimit(t *testing.T) {
	f := wecomFixture(t, "wkey")
	tl, _, _ := setup(t, fast+"targets:\n  - {name: wx, kind: wecom, url_env: WX_URL}\n  - {name: bad, kind: wecom, url_env: WX_BAD}",
		map[string]string{"WX_URL": f.URL + "/cgi-bin/webhook/send?key=wkey", "WX_BAD": f.URL + "/cgi-bin/webhook/send?key=nope"})
	var para []string
	for i := 0; i < 40; i++ {
		para = append(para, strings.Repeat("进度更新，", 20)) // 300 bytes each
	}
	text := strings.Join(para, "\n\n") // ~12 KB of UTF-8
	res, err := send(t, tl, map[string]any{"target": "wx", "text": text, "format": "markdown"})
	if err != nil {
		t.Fatal(err)
	}
	data := res.Data.(map[string]any)
	got := f.accepted()
	if data["parts"].(int) < 3 || len(got) != data["parts"].(int) || !strings.Contains(data["note"].(string), "split into") ||
		!strings.Contains(data["note"].(string), "4096 bytes") || !strings.Contains(res.Summary, "messages") {
		t.Fatalf("split: %v, %d received", data, len(got))
	}
	var joined []string
	for i, m := range got {
		c := m["markdown"].(map[string]any)["content"].(string)
		prefix := "(" + string(rune('1'+i)) + "/"
		if len(c) > 4096 || !strings.HasPrefix(c, prefix) {
			t.Fatalf("part %d: %d bytes, starts %q", i+1, len(c), c[:12])
		}
		joined = append(joined, c[strings.Index(c, ") ")+2:])
	}
	if strings.Join(joined, "\n\n") != text {
		t.Fatal("the parts do not make up the text (a part broke a paragraph or lost characters)")
	}
	// Cut instead: one message, said so.
	res, err = send(t, tl, map[string]any{"target": "wx", "text": text, "overflow": "cut"})
	if err != nil {
		t.Fatal(err)
	}
	last := f.accepted()[len(f.accepted())-1]["text"].(map[string]any)["content"].(string)
	if len(last) > 2048 || !strings.HasSuffix(last, cutMark) || res.Data.(map[string]any)["cut"] != true || !strings.Contains(res.Summary, "cut") {
		t.Fatalf("cut: %d bytes, %v", len(last), res.Summary)
	}
	_, err = send(t, tl, map[string]any{"target": "bad", "text": "x"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "code 93000") {
		t.Fatal(te)
	}
}

func TestNotify_NtfyHeadersAndToken(t *testing.T) {
	f := ntfyFixture(t, "alerts", "tk_ntfysecret")
	tl, _, _ := setup(t, fast+"targets:\n  - {name: phone, kind: ntfy, url: URL, topic: alerts, secret_env: NTFY_TOKEN, priority: high, tags: [warning, skull]}\n  - {name: anon, kind: ntfy, url: URL, topic: alerts}"[0:0]+
		strings.ReplaceAll("targets:\n  - {name: phone, kind: ntfy, url: URL, topic: alerts, secret_env: NTFY_TOKEN, priority: high, tags: [warning, skull]}\n  - {name: anon, kind: ntfy, url: URL, topic: alerts}", "URL", f.URL),
		map[string]string{"NTFY_TOKEN": "tk_ntfysecret"})
	res := mustSend(t, tl, map[string]any{"target": "phone", "title": "磁盘告警", "text": "**/var** 95%", "format": "markdown"})
	got := f.accepted()
	if len(got) != 1 || got[0]["title"] != "磁盘告警" || got[0]["priority"] != "4" || got[0]["tags"] != "warning,skull" || got[0]["markdown"] != "yes" || got[0]["message"] != "**/var** 95%" {
		t.Fatalf("ntfy received %v", got)
	}
	if !strings.HasPrefix(res["answers"].([]string)[0], "id msg") {
		t.Fatalf("answer %v", res["answers"])
	}
	_, err := send(t, tl, map[string]any{"target": "anon", "text": "x"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "HTTP 403") || !strings.Contains(te.Message, "forbidden") {
		t.Fatal(te)
	}
}

func TestNotify_GenericWebhookTemplateAndHeaders(t *testing.T) {
	var gotHeader string
	f := newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		gotHeader = r.Header.Get("X-Token") + "|" + r.Header.Get("X-Source")
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			w.WriteHeader(400)
			return
		}
		f.accept(m)
		w.WriteHeader(http.StatusAccepted)
	})
	section := fast + "targets:\n  - name: hook\n    kind: webhook\n    url: " + f.URL + "/in\n    headers: {X-Source: clawbridge}\n    header_envs: {X-Token: HOOK_TOKEN}\n" +
		"    body_template: '{\"msg\": {{json .Text}}, \"part\": {{.Part}}, \"of\": {{.Parts}}, \"fmt\": {{json .Format}}}'"
	tl, _, _ := setup(t, section, map[string]string{"HOOK_TOKEN": "hooksecret"})
	mustSend(t, tl, map[string]any{"target": "hook", "text": "a \"quoted\"\nline"})
	got := f.accepted()
	if len(got) != 1 || got[0]["msg"] != "a \"quoted\"\nline" || got[0]["part"] != 1.0 || got[0]["of"] != 1.0 || got[0]["fmt"] != "text" || gotHeader != "hooksecret|clawbridge" {
		t.Fatalf("webhook received %v headers %q", got, gotHeader)
	}
}

// Retries: 429 and 5xx are retried, honouring Retry-After in seconds or as
// an HTTP date, capped; other 4xx never.
func TestNotify_RetryOn429And5xxHonouringRetryAfter(t *testing.T) {
	f := slackFixture(t, "tok")
	tl, n, _ := setup(t, fast+"retries: 2\nretry_wait_max: 1500ms\ntargets:\n  - {name: s, kind: slack, url_env: S_URL}", map[string]string{"S_URL": f.URL + "/services/T0/B0/tok"})
	type step struct {
		status int
		after  string
	}
	script := func(steps ...step) {
		f.mu.Lock()
		base := f.requests
		f.before = func(w http.ResponseWriter, r *http.Request, i int) bool {
			if i-base-1 < len(steps) {
				s := steps[i-base-1]
				if s.after != "" {
					w.Header().Set("Retry-After", s.after)
				}
				w.WriteHeader(s.status)
				io := map[int]string{429: "rate_limited", 500: "internal_error", 503: "service_unavailable", 400: "invalid_payload", 403: "invalid_token"}[s.status]
				w.Write([]byte(io))
				return true
			}
			return false
		}
		f.mu.Unlock()
	}
	start := time.Now()
	script(step{429, "1"})
	mustSend(t, tl, map[string]any{"target": "s", "text": "after 429"})
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Fatalf("Retry-After: 1 not honoured (retried after %s)", d)
	}
	start = time.Now()
	script(step{503, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}, step{500, ""})
	mustSend(t, tl, map[string]any{"target": "s", "text": "after 503 and 500"})
	if d := time.Since(start); d < 1400*time.Millisecond || d > 5*time.Second {
		t.Fatalf("an HTTP-date Retry-After an hour away must wait the cap (1.5s), waited %s", d)
	}
	before := f.count()
	script(step{500, ""}, step{500, ""}, step{500, ""}, step{500, ""})
	_, err := send(t, tl, map[string]any{"target": "s", "text": "always 500"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Message, "HTTP 500") || f.count()-before != 3 {
		t.Fatalf("%v after %d requests (want 1 + 2 retries)", te, f.count()-before)
	}
	for _, status := range []int{400, 403} {
		before = f.count()
		script(step{status, "1"})
		_, err = send(t, tl, map[string]any{"target": "s", "text": "4xx " + http.StatusText(status)})
		tooltest.ToolError(t, err, tool.CodeFailed)
		if f.count()-before != 1 {
			t.Fatalf("HTTP %d was retried (%d requests)", status, f.count()-before)
		}
	}
	_ = n
}

// Rate limit per target: sends to one target are spaced min_interval
// apart; another target is not held up by it.
func TestNotify_RateLimitPerTarget(t *testing.T) {
	f := slackFixture(t, "tok")
	g := slackFixture(t, "tok")
	tl, _, _ := setup(t, "min_interval: 300ms\ntargets:\n  - {name: a, kind: slack, url_env: A_URL}\n  - {name: b, kind: slack, url_env: B_URL}",
		map[string]string{"A_URL": f.URL + "/services/T0/B0/tok", "B_URL": g.URL + "/services/T0/B0/tok"})
	for i := 0; i < 3; i++ {
		mustSend(t, tl, map[string]any{"target": "a", "text": "n" + string(rune('0'+i))})
	}
	start := time.Now()
	mustSend(t, tl, map[string]any{"target": "b", "text": "other"})
	if time.Since(start) > 200*time.Millisecond {
		t.Fatal("target b waited for target a's limit")
	}
	for i := 1; i < len(f.at); i++ {
		if gap := f.at[i].Sub(f.at[i-1]); gap < 280*time.Millisecond {
			t.Fatalf("requests %d and %d to one target %s apart (min_interval 300ms)", i, i+1, gap)
		}
	}
}

// Idempotency: the same call twice sends once; a split message that failed
// part-way resumes at its first unsent part; a key cannot resume another
// message.
func TestNotify_IdempotentSendAndPartialResume(t *testing.T) {
	f := wecomFixture(t, "k")
	tl, _, logs := setup(t, fast+"retries: 0\ntargets:\n  - {name: wx, kind: wecom, url_env: WX_URL, max_length: 200}", map[string]string{"WX_URL": f.URL + "/cgi-bin/webhook/send?key=k"})
	args := map[string]any{"target": "wx", "text": "hello once"}
	mustSend(t, tl, args)
	d := mustSend(t, tl, args)
	if d["status"] != "already_sent" || len(f.accepted()) != 1 {
		t.Fatalf("second send: %v, %d delivered", d, len(f.accepted()))
	}

	var lines []string
	for i := 0; i < 12; i++ {
		lines = append(lines, "line "+strings.Repeat(string(rune('a'+i)), 40))
	}
	long := map[string]any{"target": "wx", "text": strings.Join(lines, "\n"), "idempotency_key": "cron:report:2026-12-01T09:00:00Z"}
	failAt := func(n int) {
		f.mu.Lock()
		base := f.requests
		f.before = func(w http.ResponseWriter, r *http.Request, i int) bool {
			if i == base+n {
				writeJSON(w, http.StatusOK, `{"errcode":45009,"errmsg":"api freq out of limit"}`)
				return true
			}
			return false
		}
		f.mu.Unlock()
	}
	failAt(3) // the third part of the long message
	_, err := send(t, tl, long)
	te := tooltest.ToolError(t, err, tool.CodeFailed)
	if !strings.Contains(te.Message, "part 3 of") || !strings.Contains(te.Message, "parts 1-2 were delivered") || !strings.Contains(te.Hint, "from part 3") {
		t.Fatalf("partial failure: %+v", te)
	}
	res, err := send(t, tl, long)
	if err != nil {
		t.Fatal(err)
	}
	data := res.Data.(map[string]any)
	got := f.accepted()[1:]
	total := data["parts"].(int)
	if data["resumed_from_part"] != 3 || len(got) != total {
		t.Fatalf("resume: %v; %d parts delivered for %d", data, len(got), total)
	}
	for i, m := range got {
		if c := m["text"].(map[string]any)["content"].(string); !strings.HasPrefix(c, "("+string(rune('1'+i))+"/") {
			t.Fatalf("delivery %d is %q: a part was sent twice or skipped", i+1, c[:8])
		}
	}
	if d := mustSend(t, tl, long); d["status"] != "already_sent" || len(f.accepted()) != 1+total {
		t.Fatal("a finished split message was sent again")
	}

	// The same key for another message while one stopped part-way.
	failAt(2)
	other := map[string]any{"target": "wx", "text": strings.Join(lines, "\n"), "idempotency_key": "k2"}
	send(t, tl, other) // part 1 goes, part 2 refused
	other["text"] = strings.Join(lines, "\n") + "\nchanged"
	_, err = send(t, tl, other)
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "idempotency_key" {
		t.Fatal(te)
	}
	if strings.Contains(logs.String(), "line aaaa") || !strings.Contains(logs.String(), `"outcome":"partial"`) || !strings.Contains(logs.String(), `"message_sha256"`) {
		t.Fatalf("audit lines: %s", logs)
	}
}

// A request that was written but never answered may have been delivered:
// it is not retried, and a retry of the call says so instead of sending.
func TestNotify_NoAnswerIsMayHaveBeenSent(t *testing.T) {
	f := slackFixture(t, "tok")
	f.before = func(w http.ResponseWriter, r *http.Request, i int) bool {
		c, _, _ := w.(http.Hijacker).Hijack()
		c.Close()
		return true
	}
	tl, _, _ := setup(t, fast+"retries: 3\ntargets:\n  - {name: s, kind: slack, url_env: S_URL}", map[string]string{"S_URL": f.URL + "/services/T0/B0/tok"})
	_, err := send(t, tl, map[string]any{"target": "s", "text": "x"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "may have been delivered") || f.count() != 1 {
		t.Fatalf("%v after %d requests", te, f.count())
	}
	_, err = send(t, tl, map[string]any{"target": "s", "text": "x"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "may have been delivered") || f.count() != 1 {
		t.Fatalf("retry: %v after %d requests", te, f.count())
	}
}

// Secrets (URL tokens, signing secrets, bearer tokens, header values) never
// reach a result, an error, the preview or a log line, on success or
// failure.
func TestNotify_SecretsNeverShown(t *testing.T) {
	slack := slackFixture(t, "SLACKTOKEN123")
	fs := feishuFixture(t, "FEISHUHOOK456", "FEISHUSECRET789")
	nt := ntfyFixture(t, "topic", "tk_NTFYTOKEN000")
	env := map[string]string{"S_URL": slack.URL + "/services/T0/B0/SLACKTOKEN123", "S_BAD": slack.URL + "/services/T0/B0/SLACKBADTOKEN",
		"F_URL": fs.URL + "/open-apis/bot/v2/hook/FEISHUHOOK456", "F_SECRET": "FEISHUSECRET789", "F_BAD": "FEISHUWRONGSECRET",
		"N_TOKEN": "tk_NTFYTOKEN000", "N_BAD": "tk_NTFYBADTOKEN"}
	section := fast + "retries: 0\ntargets:\n  - {name: s, kind: slack, url_env: S_URL}\n  - {name: s2, kind: slack, url_env: S_BAD}\n  - {name: f, kind: feishu, url_env: F_URL, secret_env: F_SECRET}\n" +
		"  - {name: f2, kind: feishu, url_env: F_URL, secret_env: F_BAD}\n  - {name: n, kind: ntfy, url: " + nt.URL + ", topic: topic, secret_env: N_TOKEN}\n" +
		"  - {name: n2, kind: ntfy, url: " + nt.URL + ", topic: topic, secret_env: N_BAD}\n  - {name: gone, kind: slack, url_env: UNSET_VAR}\n" +
		"  - {name: down, kind: slack, url_env: DOWN_URL}"
	env["DOWN_URL"] = "http://127.0.0.1:1/services/T0/B0/DOWNTOKEN"
	tl, _, logs := setup(t, section, env)
	var seen strings.Builder
	for _, target := range []string{"s", "s2", "f", "f2", "n", "n2", "gone", "down"} {
		args := map[string]any{"target": target, "text": "hello", "action": "send"}
		res, err := send(t, tl, args)
		b, _ := json.Marshal(res)
		seen.Write(b)
		if err != nil {
			seen.WriteString(err.Error())
			e, _ := json.Marshal(err)
			seen.Write(e)
		}
		c, _ := tl.Prepare(args)
		a, _ := tl.Action("send")
		p, err := a.Preview(t.Context(), c)
		seen.WriteString(p)
		if err != nil {
			seen.WriteString(err.Error())
		}
	}
	seen.WriteString(logs.String())
	for _, secret := range []string{"SLACKTOKEN123", "SLACKBADTOKEN", "FEISHUHOOK456", "FEISHUSECRET789", "FEISHUWRONGSECRET", "NTFYTOKEN000", "NTFYBADTOKEN", "DOWNTOKEN", "/services/"} {
		if strings.Contains(seen.String(), secret) {
			t.Errorf("%s shown:\n%s", secret, seen.String())
		}
	}
	if !strings.Contains(seen.String(), "UNSET_VAR is not set") || !strings.Contains(seen.String(), "code 19021") {
		t.Fatalf("the failures were not exercised:\n%s", seen.String())
	}
}

// Only configured targets unless allow_raw_urls; a raw URL still passes the
// outbound guard.
func TestNotify_RawURLsOnlyWhenAllowedAndGuarded(t *testing.T) {
	f := slackFixture(t, "tok")
	tl, _, _ := setup(t, fast, nil)
	_, err := send(t, tl, map[string]any{"url": f.URL + "/services/T0/B0/tok", "text": "x"})
	if err == nil {
		t.Fatal("a raw URL was accepted without allow_raw_urls")
	}
	_, err = send(t, tl, map[string]any{"target": "nope", "text": "x"})
	tooltest.ToolError(t, err, tool.CodeNotFound)

	tl, _, _ = setup(t, fast+"allow_raw_urls: true", nil)
	mustSend(t, tl, map[string]any{"url": f.URL + "/services/T0/B0/tok", "kind": "slack", "text": "raw"})
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://localhost:9/x", "http://10.0.0.1/hook", "gopher://example.org/x"} {
		_, err := send(t, tl, map[string]any{"url": u, "text": "x"})
		if te := tooltest.ToolError(t, err, tool.CodeDenied); !strings.Contains(te.Message, "refused") && !strings.Contains(te.Message, "only http") {
			t.Fatalf("%s: %v", u, te)
		}
	}
	if len(f.accepted()) != 1 {
		t.Fatalf("%d delivered", len(f.accepted()))
	}
}

// The confirmation preview shows the target and the text, and how a long
// text goes out; the idempotency record is not touched by a preview.
func TestNotify_PreviewShowsTargetAndText(t *testing.T) {
	f := wecomFixture(t, "k")
	tl, n, _ := setup(t, fast+"targets:\n  - {name: wx, kind: wecom, url_env: WX_URL}", map[string]string{"WX_URL": f.URL + "/cgi-bin/webhook/send?key=k"})
	c, err := tl.Prepare(map[string]any{"action": "send", "target": "wx", "title": "周报", "text": strings.Repeat("很长的内容。", 200)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tl.Action("send")
	p, err := a.Preview(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p, "to wx (wecom at 127.0.0.1); split into 2 messages (the wecom limit is 2048 bytes of content)\n\n周报\n\n很长的内容。") || strings.Contains(p, "key=k") {
		t.Fatalf("preview:\n%s", p[:200])
	}
	if f.count() != 0 {
		t.Fatal("the preview sent something")
	}
	if _, fresh, _ := n.once.Claim(t.Context(), "notify:probe"); !fresh {
		t.Fatal("store not usable")
	}
	_, err = a.Preview(t.Context(), tool.NewCall("send", map[string]any{"target": "nope", "text": "x"}))
	tooltest.ToolError(t, err, tool.CodeNotFound)
	_ = sendonce.Sent
}

// Config: credentials only from the environment, known kinds, ntfy topics
// and priorities, webhook templates that render JSON.
func TestNotify_ConfigRefusesBadTargets(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"targets:\n  - {name: s, kind: slack, url: https://hooks.slack.com/services/T/B/x}", "put it in an environment variable"},
		{"targets:\n  - {name: s, kind: teams, url_env: X}", "kind must be one of"},
		{"targets:\n  - {name: s, kind: wecom}", "url_env is required"},
		{"targets:\n  - {name: n, kind: ntfy}", "ntfy needs topic"},
		{"targets:\n  - {name: n, kind: ntfy, topic: t, priority: loud}", "priority must be"},
		{"targets:\n  - {name: w, kind: webhook, url_env: X, body_template: '{\"t\": {{.Text}}}'}", "does not render JSON"},
		{"targets:\n  - {name: s, kind: slack, url_env: X, secret_env: Y}", "secret_env is for"},
		{"targets:\n  - {name: a, kind: slack, url_env: X}\n  - {name: a, kind: slack, url_env: Y}", "duplicate name"},
		{"max_parts: 0", "max_parts must be at least 1"},
	} {
		d := tooltest.Deps(t)
		tooltest.ConfigSection(t, d, "notify", c.body)
		New(d)
		tooltest.SectionRefused(t, d, "notify", c.want)
	}
}

// A retry that changes only overflow is the same message: once it went out
// it is not sent again, split or cut; a split that stopped part-way is not
// followed by a cut copy, and still resumes as it was split.
func TestNotify_RetryWithOtherOverflowSendsOnce(t *testing.T) {
	f := wecomFixture(t, "k")
	tl, _, _ := setup(t, fast+"retries: 0\ntargets:\n  - {name: wx, kind: wecom, url_env: WX_URL, max_length: 200}", map[string]string{"WX_URL": f.URL + "/cgi-bin/webhook/send?key=k"})
	var lines []string
	for i := 0; i < 12; i++ {
		lines = append(lines, "line "+strings.Repeat(string(rune('a'+i)), 40))
	}
	long := strings.Join(lines, "\n")
	for _, text := range []string{"deploy done", long} {
		before := len(f.accepted())
		d := mustSend(t, tl, map[string]any{"target": "wx", "text": text, "overflow": "split"})
		parts := d["parts"].(int)
		for _, overflow := range []string{"cut", "split"} {
			d = mustSend(t, tl, map[string]any{"target": "wx", "text": text, "overflow": overflow})
			if d["status"] != "already_sent" || len(f.accepted()) != before+parts {
				t.Fatalf("retry with overflow %s of a %d-part message: %v; %d delivered", overflow, parts, d, len(f.accepted())-before)
			}
		}
	}

	other := long + "\nanother report"
	f.mu.Lock()
	base := f.requests
	f.before = func(w http.ResponseWriter, r *http.Request, i int) bool {
		if i == base+2 {
			writeJSON(w, http.StatusOK, `{"errcode":45009,"errmsg":"api freq out of limit"}`)
			return true
		}
		return false
	}
	f.mu.Unlock()
	_, err := send(t, tl, map[string]any{"target": "wx", "text": other}) // part 1 goes, part 2 refused
	tooltest.ToolError(t, err, tool.CodeFailed)
	delivered := len(f.accepted())
	_, err = send(t, tl, map[string]any{"target": "wx", "text": other, "overflow": "cut"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "idempotency_key" || len(f.accepted()) != delivered {
		t.Fatalf("a cut copy after a partial split: %+v; %d more delivered", te, len(f.accepted())-delivered)
	}
	d := mustSend(t, tl, map[string]any{"target": "wx", "text": other})
	if d["resumed_from_part"] != 2 || len(f.accepted()) != delivered+d["parts"].(int)-1 {
		t.Fatalf("resume after the refused cut: %v", d)
	}
}
