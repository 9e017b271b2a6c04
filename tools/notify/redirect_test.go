package notify

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestNotify_RedirectsAreNotFollowed: a target that answers with a
// redirect (301, 302, 303, 307, 308) to a second server: that server gets
// no request at all — no bearer token, no secret header, no Referer with
// the webhook URL's token, no message — and the call says nothing was
// delivered instead of reporting the redirect target's 200 as sent.
func TestNotify_RedirectsAreNotFollowed(t *testing.T) {
	var mu sync.Mutex
	var landed []string // what the second server saw
	other := newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		mu.Lock()
		landed = append(landed, r.Method+" "+r.RequestURI+" auth="+r.Header.Get("Authorization")+" x-token="+r.Header.Get("X-Token")+
			" referer="+r.Header.Get("Referer")+" body="+string(body))
		mu.Unlock()
		writeJSON(w, 200, `{"id":"m1","event":"message","errcode":0,"errmsg":"ok","code":0}`)
	})
	status := http.StatusTemporaryRedirect
	target := newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		http.Redirect(w, r, other.URL+"/landing?from=notify", status)
	})
	env := map[string]string{
		"WH_URL": target.URL + "/hook/PathSecret7788", "WH_TOKEN": "hdrSecretValue3141", "WH_AUTH": "Bearer whBearer2718",
		"NT_TOKEN": "tk_ntfyTOKEN0123456789", "DT_URL": target.URL + "/robot/send?access_token=dtAccessTok5566778899", "DT_SECRET": "SECding123456",
		"WX_URL": target.URL + "/cgi-bin/webhook/send?key=693a91f6-7c2e-4bc4-97a0-0ec2b1fa5d3e",
	}
	section := fast + "retries: 2\ntargets:\n" +
		"  - {name: wh, kind: webhook, url_env: WH_URL, header_envs: {X-Token: WH_TOKEN, Authorization: WH_AUTH}}\n" +
		"  - {name: nt, kind: ntfy, url: " + target.URL + ", topic: alerts, secret_env: NT_TOKEN}\n" +
		"  - {name: dt, kind: dingtalk, url_env: DT_URL, secret_env: DT_SECRET}\n" +
		"  - {name: wx, kind: wecom, url_env: WX_URL}\n"
	tl, _, logs := setup(t, section, env)
	for _, s := range []int{301, 302, 303, 307, 308} {
		status = s
		for _, name := range []string{"wh", "nt", "dt", "wx"} {
			before := target.count()
			_, err := send(t, tl, map[string]any{"target": name, "text": "redirected " + http.StatusText(s)})
			te := tooltest.ToolError(t, err, tool.CodeFailed)
			if !strings.Contains(te.Message, "redirect") || !strings.Contains(te.Hint, "nothing was delivered") || target.count() != before+1 {
				t.Fatalf("HTTP %d to %s: %+v after %d requests", s, name, te, target.count()-before)
			}
			if strings.Contains(te.Message+te.Hint, "Secret") || strings.Contains(te.Message+te.Hint, "TOKEN") {
				t.Fatalf("a secret in the error: %+v", te)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(landed) != 0 {
		t.Fatalf("the redirect target received %d requests:\n%s", len(landed), strings.Join(landed, "\n"))
	}
	if strings.Contains(logs.String(), "Secret") || strings.Contains(logs.String(), "TOKEN") {
		t.Fatalf("a secret in the log:\n%s", logs)
	}
}
