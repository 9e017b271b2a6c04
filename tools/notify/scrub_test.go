package notify

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// echoAll is what a hostile or careless endpoint says back: every piece of
// the request that may carry a credential — the request URI, each path
// segment and query value, every header value, a Basic header decoded — in
// one form: whole, URL-encoded, JSON-escaped the PHP way (\/), or cut to
// its first and last ten characters.
func echoAll(r *http.Request, form string) string {
	var vals []string
	vals = append(vals, r.RequestURI)
	vals = append(vals, strings.Split(r.URL.Path, "/")...)
	for _, vs := range r.URL.Query() {
		vals = append(vals, vs...)
	}
	for _, k := range []string{"Authorization", "X-Token"} {
		if v := r.Header.Get(k); v != "" {
			vals = append(vals, v)
			if s, c, ok := strings.Cut(v, " "); ok && s == "Basic" {
				if dec, err := base64.StdEncoding.DecodeString(c); err == nil {
					vals = append(vals, string(dec))
				}
			}
		}
	}
	var b strings.Builder
	for _, v := range vals {
		switch {
		case len(v) < 4:
		case form == "whole":
			b.WriteString(v + " ")
		case form == "encoded":
			b.WriteString(url.QueryEscape(v) + " ")
		case form == "escaped":
			b.WriteString(strings.ReplaceAll(v, "/", `\/`) + " ")
		case form == "cut" && len(v) > 10:
			fmt.Fprintf(&b, "%s… …%s ", v[:10], v[len(v)-10:])
		}
	}
	return b.String()
}

// The secrets of TestNotify_EchoedSecretsNeverShown's targets, and the
// pieces of them that must never be seen.
var echoSecrets = []string{
	"T0123ABCD", "B0456EFGH", "SlackTok3nXYZ987654", // slack URL path
	"693a91f6-7c2e-4bc4-97a0-0ec2b1fa5d3e",         // wecom key (query)
	"dtAccessTok5566778899", "SECdingSecret123456", // dingtalk access_token, signing secret
	"f1e2d3c4-b5a6-4978-8a9b-feishuHOOK01", "FeishuSignSecret42", // feishu hook, signing secret
	"tk_ntfyTOKEN0123456789",                                                  // ntfy bearer token
	"hookPASS1234", "PathSecret7788", "QuerySecret9900", "hdrSecretValue3141", // webhook user info, path, query, header
	"apiPASSWORD99", "YXBpdXNlcjphcGlQQVNTV09SRDk5", // a Basic header's password and the header's base64
}

// TestNotify_EchoedSecretsNeverShown: endpoints that echo the request —
// its URL, path segments, query values, headers, the bearer token, whole,
// URL-encoded, JSON-escaped or cut — in a 2xx answer, a platform's error code, a 4xx or a
// 5xx: no piece of 8 characters of any secret reaches a result, an error or
// a log line.
func TestNotify_EchoedSecretsNeverShown(t *testing.T) {
	mode, form := "2xx", "whole"
	f := newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		echo := echoAll(r, form)
		j, _ := json.Marshal(echo)
		switch {
		case mode == "4xx":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "invalid: "+echo)
		case mode == "5xx":
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, "broken: "+echo)
		case strings.HasPrefix(r.URL.Path, "/services/"): // slack: a 2xx that is not "ok" is a refusal
			io.WriteString(w, "not ok: "+echo)
		case strings.HasPrefix(r.URL.Path, "/cgi-bin/"), strings.HasPrefix(r.URL.Path, "/robot/"):
			code := map[string]int{"2xx": 0, "platform": 93000}[mode]
			writeJSON(w, 200, fmt.Sprintf(`{"errcode":%d,"errmsg":%s}`, code, j))
		case strings.HasPrefix(r.URL.Path, "/open-apis/"):
			code := map[string]int{"2xx": 0, "platform": 19021}[mode]
			writeJSON(w, 200, fmt.Sprintf(`{"code":%d,"msg":%s}`, code, j))
		case strings.HasPrefix(r.URL.Path, "/alerts"):
			if mode == "platform" {
				writeJSON(w, 200, `{"event":"message"}`) // no id: an unexpected answer, quoted back
				return
			}
			writeJSON(w, 200, fmt.Sprintf(`{"id":%s,"event":"message"}`, j))
		default: // a generic webhook: any 2xx is success, its body the answer
			io.WriteString(w, echo)
		}
	})
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("apiuser:apiPASSWORD99"))
	env := map[string]string{
		"S_URL":      f.URL + "/services/T0123ABCD/B0456EFGH/SlackTok3nXYZ987654",
		"WX_URL":     f.URL + "/cgi-bin/webhook/send?key=693a91f6-7c2e-4bc4-97a0-0ec2b1fa5d3e",
		"DT_URL":     f.URL + "/robot/send?access_token=dtAccessTok5566778899",
		"DT_SECRET":  "SECdingSecret123456",
		"FS_URL":     f.URL + "/open-apis/bot/v2/hook/f1e2d3c4-b5a6-4978-8a9b-feishuHOOK01",
		"FS_SECRET":  "FeishuSignSecret42",
		"NT_TOKEN":   "tk_ntfyTOKEN0123456789",
		"WH_URL":     strings.Replace(f.URL, "http://", "http://hookuser:hookPASS1234@", 1) + "/hook/PathSecret7788?sig=QuerySecret9900&format=json",
		"WH_TOKEN":   "hdrSecretValue3141",
		"WH2_URL":    f.URL + "/hook/in",
		"WH2_BASIC":  basic,
		"WH2_XTOKEN": "hdrSecretValue3141",
	}
	section := fast + "retries: 0\ntargets:\n" +
		"  - {name: s, kind: slack, url_env: S_URL}\n" +
		"  - {name: wx, kind: wecom, url_env: WX_URL}\n" +
		"  - {name: dt, kind: dingtalk, url_env: DT_URL, secret_env: DT_SECRET}\n" +
		"  - {name: fs, kind: feishu, url_env: FS_URL, secret_env: FS_SECRET}\n" +
		"  - {name: nt, kind: ntfy, url: " + f.URL + ", topic: alerts, secret_env: NT_TOKEN}\n" +
		"  - {name: wh, kind: webhook, url_env: WH_URL, header_envs: {X-Token: WH_TOKEN}}\n" +
		"  - {name: wh2, kind: webhook, url_env: WH2_URL, header_envs: {Authorization: WH2_BASIC, X-Token: WH2_XTOKEN}}\n"
	tl, _, logs := setup(t, section, env)
	var seen strings.Builder
	sent, failed := 0, 0
	for _, fm := range []string{"whole", "encoded", "escaped", "cut"} {
		form = fm
		for _, m := range []string{"2xx", "platform", "4xx", "5xx"} {
			mode = m
			for _, target := range []string{"s", "wx", "dt", "fs", "nt", "wh", "wh2"} {
				res, err := send(t, tl, map[string]any{"target": target, "text": "hello " + m + " " + fm})
				if err != nil {
					failed++
					te, ok := tool.AsError(err)
					if !ok {
						t.Fatalf("%s %s: not a tool error: %v", m, target, err)
					}
					seen.WriteString(te.Message + " | " + te.Hint + "\n")
					continue
				}
				sent++
				b, _ := json.Marshal(res)
				seen.Write(append(b, '\n'))
			}
		}
	}
	seen.WriteString(logs.String())
	// every target answered in each mode, and the answers were quoted back
	if sent != 4*8 || failed != 4*20 || !strings.Contains(seen.String(), "[redacted]") || !strings.Contains(seen.String(), "webhook") {
		t.Fatalf("%d sent, %d failed (want 32 and 80):\n%s", sent, failed, seen.String())
	}
	for _, secret := range echoSecrets {
		for i := 0; i+8 <= len(secret); i++ {
			if piece := secret[i : i+8]; strings.Contains(seen.String(), piece) {
				t.Fatalf("%q of secret %q shown:\n%s", piece, secret, seen.String())
			}
		}
	}
}

// Scrubbing keeps the words of a message: only secret pieces go, plain
// words of the URL ("services", "webhook") and the host stay.
func TestNotify_ScrubKeepsWhatIsNotSecret(t *testing.T) {
	var rd redactor
	rd.addURL("https://hooks.example.com/services/T0123ABCD/B0456EFGH/SlackTok3nXYZ987654?format=json")
	rd.addValue("tk_ntfyTOKEN0123456789")
	for in, want := range map[string]string{
		"no_service for /services/T0123ABCD/B0456EFGH/SlackTok3nXYZ987654": "no_service for /services/[redacted]/[redacted]/[redacted]",
		"token SlackTok3n… rejected at hooks.example.com (format json)":    "token [redacted]… rejected at hooks.example.com (format json)",
		"Bearer tk_ntfyTOKEN0123456789 is unknown; webhook services ok":    "Bearer [redacted] is unknown; webhook services ok",
		"tk_ntfyTOKEN0123456789SlackTok3nXYZ987654":                        "[redacted]",
		"short Tok3 and 你好 stay":                                           "short Tok3 and 你好 stay",
	} {
		if got := rd.scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// A platform's own message (errmsg, msg) is quoted back cut, like a body:
// an endpoint cannot fill a result with 64 KB.
func TestNotify_LongPlatformMessagesAreCut(t *testing.T) {
	code := 0
	f := newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		writeJSON(w, 200, fmt.Sprintf(`{"errcode":%d,"errmsg":"%s"}`, code, strings.Repeat("long ", 10000)))
	})
	tl, _, _ := setup(t, fast+"retries: 0\ntargets:\n  - {name: wx, kind: wecom, url_env: WX_URL}", map[string]string{"WX_URL": f.URL + "/cgi-bin/webhook/send?key=k"})
	d := mustSend(t, tl, map[string]any{"target": "wx", "text": "ok"})
	if a := d["answers"].([]string)[0]; len(a) > 300 || !strings.HasPrefix(a, "errcode 0 (long long") {
		t.Fatalf("answer of %d bytes: %.80s", len(a), a)
	}
	code = 93000
	_, err := send(t, tl, map[string]any{"target": "wx", "text": "refused"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); len(te.Message) > 400 || !strings.Contains(te.Message, "code 93000: long long") {
		t.Fatalf("error of %d bytes: %.120s", len(te.Message), te.Message)
	}
}
