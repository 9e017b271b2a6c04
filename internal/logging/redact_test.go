package logging

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRedactString_Secrets: every variant loses its secret and keeps the
// words around it.
func TestRedactString_Secrets(t *testing.T) {
	cases := []struct {
		in, secret, keep string
	}{
		{"mysql --password=hunter2 -h db", "hunter2", "-h db"},
		{"mysql --password hunter2 -h db", "hunter2", "-h db"},
		{`psql --password="two words" x`, "two words", "psql"},
		{"tool --token abc123XYZ run", "abc123XYZ", "run"},
		{"tool --api-key=K3Y run", "K3Y", "run"},
		{"tool --client-secret 's p' run", "s p", "run"},
		{"tool --db-pass p4ss run", "p4ss", "run"},
		{"tool -token=abc123 run", "abc123", "run"},
		{"GET /x?access_token=tok123&page=2", "tok123", "page=2"},
		{"https://api.example/v1?api_key=KEY999&q=cats", "KEY999", "q=cats"},
		{"token=abc password=def api_key=ghi", "abc", ""},
		{"token=abc password=def api_key=ghi", "def", ""},
		{"token=abc password=def api_key=ghi", "ghi", ""},
		{"PGPASSWORD=s3cr3t psql -h db", "s3cr3t", "psql -h db"},
		{"MYSQL_PWD=s3cr3t mysql", "s3cr3t", "mysql"},
		{"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI aws s3 ls", "wJalrXUtnFEMI", "aws s3 ls"},
		{"GITHUB_TOKEN=plain-token-value", "plain-token-value", "GITHUB_TOKEN"},
		{`{"password": "jsonpw", "user": "bob"}`, "jsonpw", "bob"},
		{"password: yamlpw\nuser: bob", "yamlpw", "bob"},
		{"accessToken=camel123", "camel123", ""},
		{"postgres://bob:pw123@db:5432/x", "pw123", "db:5432/x"},
		{"postgresql://bob:p@ss:w/rd@db/x", "p@ss:w/rd", "db/x"},
		{"redis://:redispw@cache:6379/0", "redispw", "cache:6379"},
		{"amqp://guest:guestpw@mq//", "guestpw", "mq"},
		{"host=db port=5432 user=bob password=kvpw dbname=app", "kvpw", "dbname=app"},
		{"host=db user=bob password='quoted pw' dbname=app", "quoted pw", "dbname=app"},
		{"bob:mysqlpw@tcp(db:3306)/app?parseTime=true", "mysqlpw", "db:3306"},
		{"bob:mysqlpw@unix(/run/mysql.sock)/app", "mysqlpw", "app"},
		{"Authorization: Bearer abc.def.ghi", "abc.def.ghi", "Authorization"},
		{"authorization: basic Ym9iOnB3", "Ym9iOnB3", "basic"},
		{"curl -H 'Authorization: Basic Ym9iOnB3' https://x", "Ym9iOnB3", "https://x"},
		{"Proxy-Authorization: Digest-ish c3VwZXI=", "c3VwZXI=", "Proxy"},
		{"Authorization: Token abcdef123", "abcdef123", ""},
		{"Cookie: session=abc; csrftoken=def", "session=abc", ""},
		{"Cookie: session=abc; csrftoken=def", "def", ""},
		{"cookie=sessval", "sessval", ""},
		{"X-Api-Key: xk-123456", "xk-123456", "X-Api-Key"},
		{"curl -u bob:curlpw https://x", "curlpw", "https://x"},
		{"key sk-abcdefghijklmnopqrstuv", "sk-abcdefghijklmnopqrstuv", ""},
		{"sk-ant-api03-abcdefghijklmnopqrst", "abcdefghijklmnopqrst", ""},
		{"ghp_abcdefghijklmnopqrstuvwxyz0123", "ghp_abcdefghijklmnopqrstuvwxyz0123", ""},
		{"github_pat_11ABCDEFG0123456789_abcdefghijkl", "github_pat_11ABCDEFG", ""},
		{"glpat-abcdefghijklmnop1234", "glpat-abcdefghijklmnop1234", ""},
		{"xoxb-123456789-abcdefgh", "xoxb-123456789-abcdefgh", ""},
		{"AKIAABCDEFGHIJKLMNOP in use", "AKIAABCDEFGHIJKLMNOP", "in use"},
		{"AIzaSyA-abcdefghijklmnopqrstuvwxyz012", "AIzaSyA-abcdefghij", ""},
		{"sk_live_abcdefghijklmnop1234", "sk_live_abcdefghijklmnop1234", ""},
		{"hf_abcdefghijklmnopqrstuvwxyzABCDEF", "hf_abcdefghijklmnopqrstuvwxyzABCDEF", ""},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", "eyJzdWIiOiIxMjM0In0", "jwt"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nafter", "MIIEowIBAAKCAQEA", "after"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA (cut off", "b3BlbnNzaC1rZXktdjEA", ""},
		{"密码 password=秘密的值 完", "秘密的值", "完"},
	}
	for _, c := range cases {
		got := RedactString(c.in)
		if strings.Contains(got, c.secret) {
			t.Errorf("%q: secret %q left in %q", c.in, c.secret, got)
		}
		if c.keep != "" && !strings.Contains(got, c.keep) {
			t.Errorf("%q: over-redacted, %q lost: %q", c.in, c.keep, got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%q: invalid UTF-8 %q", c.in, got)
		}
	}
}

// TestRedactString_Plain: ordinary text and look-alike flags stay as they are.
func TestRedactString_Plain(t *testing.T) {
	for _, s := range []string{
		"ls -la /tmp",
		"wget --passive-ftp ftp://example.org/file",
		"sort -k 2 data.csv",
		"grep -r author notes/",
		"https://example.com/a:b@c", // a path, not user info
		"mkdir -p out/dir",
		"--keyboard us",
		"你好, clawbridge",
		"max_tokens=100", // "tokens" is not "token"
	} {
		if got := RedactString(s); got != s {
			t.Errorf("%q changed to %q", s, got)
		}
	}
}

// TestRedact_Argv: in an argument list the element after a secret-named flag
// is masked, whatever the flag's spelling.
func TestRedact_Argv(t *testing.T) {
	cases := [][]string{
		{"mysql", "--password", "hunter2", "-h", "db"},
		{"tool", "--token", "hunter2"},
		{"tool", "-token", "hunter2"},
		{"tool", "--api-key", "hunter2"},
		{"tool", "--apiKey", "hunter2"},
		{"tool", "--auth-token", "hunter2"},
		{"tool", "--client_secret", "hunter2"},
		{"tool", "--password=hunter2"},
		{"env", "DB_PASSWORD=hunter2", "run"},
		{"curl", "-u", "bob:hunter2", "https://x"},
		{"curl", "-H", "Authorization: Bearer hunter2", "https://x"},
		{"psql", "postgres://bob:hunter2@db/app"},
	}
	for _, argv := range cases {
		list := make([]any, len(argv))
		for i, a := range argv {
			list[i] = a
		}
		b, _ := json.Marshal(Redact(map[string]any{"argv": list}))
		if strings.Contains(string(b), "hunter2") {
			t.Errorf("%v: %s", argv, b)
		}
		if got := strings.Join(RedactArgv(argv), " "); strings.Contains(got, "hunter2") {
			t.Errorf("RedactArgv %v: %s", argv, got)
		}
		if !strings.Contains(string(b), argv[0]) {
			t.Errorf("%v: program name lost: %s", argv, b)
		}
	}
	// A flag followed by another flag masks nothing.
	got := RedactArgv([]string{"tool", "--token", "--verbose", "file"})
	if strings.Join(got, " ") != "tool --token --verbose file" {
		t.Errorf("flag after flag: %v", got)
	}
}

// TestRedact_Fields: secret-named fields are masked at any depth, in any map
// shape.
func TestRedact_Fields(t *testing.T) {
	in := map[string]any{
		"path":     "notes.txt",
		"password": "hunter2",
		"nested":   map[string]any{"api_key": "k1", "url": "postgres://bob:pw123@db:5432/x"},
		"headers":  map[string]string{"Authorization": "Bearer abc.def.ghi", "Accept": "text/html"},
		"env":      map[string]any{"GITHUB_TOKEN": "ghtok", "HOME": "/home/x"},
		"list":     []any{"Authorization: Bearer abc.def.ghi", "plain"},
		"names":    []string{"--secret", "s3"},
	}
	out, _ := json.Marshal(Redact(in))
	s := string(out)
	for _, secret := range []string{"hunter2", `"k1"`, "pw123", "abc.def.ghi", "ghtok", `"s3"`} {
		if strings.Contains(s, secret) {
			t.Errorf("%s leaked: %s", secret, s)
		}
	}
	for _, keep := range []string{"notes.txt", "plain", "text/html", "/home/x"} {
		if !strings.Contains(s, keep) {
			t.Errorf("over-redacted, %s lost: %s", keep, s)
		}
	}
}

// TestRedact_UTF8Cut: cutting long values never splits a rune, and a secret
// across the cut or past the scan window is still masked.
func TestRedact_UTF8Cut(t *testing.T) {
	for pad := 0; pad < 4; pad++ {
		s := strings.Repeat("x", pad) + strings.Repeat("密", 200)
		got := Redact(s).(string)
		if !utf8.ValidString(got) {
			t.Fatalf("pad %d: invalid UTF-8 after the cut: %q", pad, got[len(got)-8:])
		}
		if len(got) > auditChars+len("…") || !strings.HasSuffix(got, "…") {
			t.Errorf("pad %d: not cut: %d bytes", pad, len(got))
		}
	}
	// A secret that straddles the audit cut.
	s := strings.Repeat("a", 190) + " token=straddling-the-cut"
	if got := Redact(s).(string); strings.Contains(got, "stra") {
		t.Errorf("secret across the cut: %q", got)
	}
	// A quoted value and a PEM block cut off by the scan window.
	long := `password="` + strings.Repeat("p", scanChars+10) + `"`
	if got := Redact(long).(string); strings.Contains(got, "ppp") {
		t.Errorf("quoted value past the scan window leaked: %q", got)
	}
	pem := "-----BEGIN PRIVATE KEY-----\n" + strings.Repeat("QUJD", scanChars)
	if got := Redact(pem).(string); strings.Contains(got, "QUJD") {
		t.Errorf("PEM past the scan window leaked: %q", got)
	}
	// Invalid UTF-8 in the input comes out valid.
	if got := Redact("ok \xff\xfe token=x").(string); !utf8.ValidString(got) || strings.Contains(got, "=x") {
		t.Errorf("invalid input: %q", got)
	}
}

// TestRedactString_PrefilterExact: a string the prefilter lets through
// untouched is one no pattern would change, over random strings of the
// characters the patterns look at (key prefixes, @ / . ( ) quotes, digits).
func TestRedactString_PrefilterExact(t *testing.T) {
	pieces := []string{"a", "Z", "7", ".", "/", "@", "(", ")", "\"", "'", "&", ";", ",", "}", "]",
		"AKIA", "ASIA", "AIza", "eyJ", "sk", "ghp", "xoxb", "hf", "npm", "bearer", "Bearer", "token", "password",
		"tcp", "http://", "cookie", "authorization", "ABCDEFGHIJKLMNOP", "0123456789", "中文"}
	rnd := rand.New(rand.NewPCG(1, 2))
	skipped := 0
	for range 200000 {
		var b strings.Builder
		for range 1 + rnd.IntN(12) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		if mayHoldSecret(s) {
			continue
		}
		skipped++
		if got := redactPatterns(s); got != s {
			t.Fatalf("prefilter skipped %q, which the patterns change to %q", s, got)
		}
	}
	if skipped == 0 {
		t.Fatal("no string skipped the patterns")
	}
	// Each kind of secret still needs the patterns.
	for _, s := range []string{"AKIAABCDEFGHIJKLMNOP", "AIza" + strings.Repeat("x", 35), "token=abc", "https://u:p@h", "Bearer x", "sk-" + strings.Repeat("a", 20)} {
		if !mayHoldSecret(s) || RedactString(s) == s {
			t.Errorf("%q not redacted", s)
		}
	}
}

// TestSecretName_Memo: a remembered verdict is the computed one, on the
// first call and after, for names past the memo's length bound, and once
// the memo is full (names a client sends must not grow it without end).
func TestSecretName_Memo(t *testing.T) {
	names := []string{"action", "path", "password", "api_key", "X-Api-Key", "accessToken", "max_tokens", "author", "keyboard", "--db-pass",
		strings.Repeat("a", memoNameLen) + "_token", strings.Repeat("b", memoNameLen+10)}
	for _, n := range names {
		want := secretName(n)
		for i := range 3 {
			if got := SecretName(n); got != want {
				t.Errorf("SecretName(%q) call %d = %v, want %v", n, i, got, want)
			}
		}
	}
	for i := range memoNames + 100 {
		SecretName(fmt.Sprintf("field%d", i))
	}
	if n := secretNamesLen.Load(); n > memoNames {
		t.Errorf("memo holds %d names, bound %d", n, memoNames)
	}
	if !SecretName("new_password_field") || SecretName("new_plain_field") {
		t.Error("a name seen after the memo filled is judged wrongly")
	}
}
