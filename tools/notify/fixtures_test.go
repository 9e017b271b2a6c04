package notify

// Fixture servers that behave as each platform documents: they check the
// signature (and its one-hour timestamp window), enforce the length limit
// and answer in the platform's own format, success and error codes.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// fixture records what a platform server accepted.
type fixture struct {
	*httptest.Server
	mu       sync.Mutex
	got      []map[string]any // accepted messages, decoded
	requests int              // every request, refused ones included
	at       []time.Time      // arrival of every request
	// before, when set, may answer a request itself (429s, failures).
	before func(w http.ResponseWriter, r *http.Request, n int) bool
}

func newFixture(t *testing.T, h func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte)) *fixture {
	f := &fixture{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.requests++
		n := f.requests
		f.at = append(f.at, time.Now())
		before := f.before
		f.mu.Unlock()
		if before != nil && before(w, r, n) {
			return
		}
		h(f, w, r, body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fixture) accept(m map[string]any) {
	f.mu.Lock()
	f.got = append(f.got, m)
	f.mu.Unlock()
}

func (f *fixture) accepted() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.got...)
}

func (f *fixture) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func writeJSON(w http.ResponseWriter, status int, v string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, v)
}

// slackFixture: POST /services/T0/B0/<token> with {"text"}; plain-text
// answers as Slack gives them.
func slackFixture(t *testing.T, token string) *fixture {
	return newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path != "/services/T0/B0/"+token {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "no_service")
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil || m["text"] == nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "invalid_payload")
			return
		}
		if text, _ := m["text"].(string); utf8.RuneCountInString(text) > 40000 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "msg_too_long")
			return
		}
		f.accept(m)
		io.WriteString(w, "ok")
	})
}

// feishuSignature is the Feishu documentation's Go sample: HMAC-SHA256 with
// the key timestamp+"\n"+secret over no data.
func feishuSignature(secret string, timestamp int64) string {
	stringToSign := fmt.Sprintf("%v", timestamp) + "\n" + secret
	var data []byte
	h := hmac.New(sha256.New, []byte(stringToSign))
	h.Write(data)
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// feishuFixture: POST /open-apis/bot/v2/hook/<token>; the signature and a
// timestamp within an hour are required when secret is set; the body may
// not exceed 20 KB.
func feishuFixture(t *testing.T, token, secret string) *fixture {
	return newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path != "/open-apis/bot/v2/hook/"+token {
			writeJSON(w, http.StatusOK, `{"code":19001,"msg":"param invalid: incoming webhook access token invalid"}`)
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			writeJSON(w, http.StatusBadRequest, `{"code":9499,"msg":"Bad Request","data":{}}`)
			return
		}
		if len(body) > 20<<10 {
			writeJSON(w, http.StatusOK, `{"code":9499,"msg":"request body size exceeds 20KB","data":{}}`)
			return
		}
		if secret != "" {
			tsStr, _ := m["timestamp"].(string)
			ts, err := strconv.ParseInt(tsStr, 10, 64)
			skew := time.Since(time.Unix(ts, 0))
			if err != nil || skew > time.Hour || skew < -time.Hour || m["sign"] != feishuSignature(secret, ts) {
				writeJSON(w, http.StatusOK, `{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}`)
				return
			}
		}
		f.accept(m)
		writeJSON(w, http.StatusOK, `{"StatusCode":0,"StatusMessage":"success","code":0,"data":{},"msg":"success"}`)
	})
}

// dingtalkFixture: POST /robot/send?access_token=<token>[&timestamp&sign];
// the sign is urlencoded in the query, its timestamp in milliseconds within
// an hour; content at most 20,000 characters.
func dingtalkFixture(t *testing.T, token, secret string) *fixture {
	return newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		q := r.URL.Query()
		if r.URL.Path != "/robot/send" || q.Get("access_token") != token {
			writeJSON(w, http.StatusOK, `{"errcode":300001,"errmsg":"token is not exist"}`)
			return
		}
		if secret != "" {
			ts, err := strconv.ParseInt(q.Get("timestamp"), 10, 64)
			if skew := time.Since(time.UnixMilli(ts)); err != nil || skew > time.Hour || skew < -time.Hour {
				writeJSON(w, http.StatusOK, `{"errcode":310000,"errmsg":"invalid timestamp"}`)
				return
			}
			mac := hmac.New(sha256.New, []byte(secret))
			mac.Write([]byte(q.Get("timestamp") + "\n" + secret))
			want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
			// The raw query carries it urlencoded: no bare + / = survive.
			raw := r.URL.RawQuery[strings.Index(r.URL.RawQuery, "sign=")+5:]
			if q.Get("sign") != want || strings.ContainsAny(raw, "+/=") {
				writeJSON(w, http.StatusOK, `{"errcode":310000,"errmsg":"sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]"}`)
				return
			}
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			writeJSON(w, http.StatusOK, `{"errcode":40035,"errmsg":"缺少参数 json"}`)
			return
		}
		content := ""
		if tx, ok := m["text"].(map[string]any); ok {
			content, _ = tx["content"].(string)
		}
		if md, ok := m["markdown"].(map[string]any); ok {
			content, _ = md["text"].(string)
		}
		if utf8.RuneCountInString(content) > 20000 {
			writeJSON(w, http.StatusOK, `{"errcode":460101,"errmsg":"message too long, exceed 20000 bytes"}`)
			return
		}
		f.accept(m)
		writeJSON(w, http.StatusOK, `{"errcode":0,"errmsg":"ok"}`)
	})
}

// wecomFixture: POST /cgi-bin/webhook/send?key=<key>; text at most 2048
// bytes, markdown 4096.
func wecomFixture(t *testing.T, key string) *fixture {
	return newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path != "/cgi-bin/webhook/send" || r.URL.Query().Get("key") != key {
			writeJSON(w, http.StatusOK, `{"errcode":93000,"errmsg":"invalid webhook url, hint: [1700000000000000000], from ip: 127.0.0.1, more info at https://open.work.weixin.qq.com/devtool/query?e=93000"}`)
			return
		}
		var m map[string]any
		json.Unmarshal(body, &m)
		kind, _ := m["msgtype"].(string)
		part, _ := m[kind].(map[string]any)
		content, _ := part["content"].(string)
		if limit := map[string]int{"text": 2048, "markdown": 4096}[kind]; limit == 0 || len(content) > limit {
			writeJSON(w, http.StatusOK, fmt.Sprintf(`{"errcode":40058,"errmsg":"%s.content exceed max length %d"}`, kind, limit))
			return
		}
		f.accept(m)
		writeJSON(w, http.StatusOK, `{"errcode":0,"errmsg":"ok"}`)
	})
}

// ntfyFixture: POST /<topic> with the message as body and headers; a token
// when set; 4096 bytes at most; answers the message object.
func ntfyFixture(t *testing.T, topic, token string) *fixture {
	return newFixture(t, func(f *fixture, w http.ResponseWriter, r *http.Request, body []byte) {
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			writeJSON(w, http.StatusForbidden, `{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}`)
			return
		}
		if r.URL.Path != "/"+topic {
			writeJSON(w, http.StatusNotFound, `{"code":40401,"http":404,"error":"page not found"}`)
			return
		}
		if len(body) > 4096 {
			writeJSON(w, http.StatusRequestEntityTooLarge, `{"code":41301,"http":413,"error":"message too large"}`)
			return
		}
		title, _ := new(mime.WordDecoder).DecodeHeader(r.Header.Get("Title"))
		m := map[string]any{"id": fmt.Sprintf("msg%d", f.count()), "time": time.Now().Unix(), "expires": time.Now().Add(12 * time.Hour).Unix(),
			"event": "message", "topic": topic, "message": string(body), "title": title,
			"priority": r.Header.Get("Priority"), "tags": r.Header.Get("Tags"), "markdown": r.Header.Get("Markdown")}
		f.accept(m)
		b, _ := json.Marshal(m)
		writeJSON(w, http.StatusOK, string(b))
	})
}
