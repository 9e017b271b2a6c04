package webfetch

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// robotsRegexp is the reference meaning of a robots.txt path pattern
// (RFC 9309): * is any run of characters, a final $ ends the path,
// everything else is literal and matched from the start of the path.
func robotsRegexp(pattern string) *regexp.Regexp {
	anchored := strings.HasSuffix(pattern, "$")
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for i, part := range strings.Split(strings.TrimSuffix(pattern, "$"), "*") {
		if i > 0 {
			b.WriteString(`.*`)
		}
		b.WriteString(regexp.QuoteMeta(part))
	}
	if anchored {
		b.WriteString(`$`)
	}
	return regexp.MustCompile(b.String())
}

// FuzzRobotsMatch: matchRobots agrees with the reference regexp on every
// pattern and path.
func FuzzRobotsMatch(f *testing.F) {
	for _, s := range [][2]string{{"/a*b$", "/abxb"}, {"/", "/x"}, {"/*.php$", "/a.php"}, {"/*.php$", "/a.php?x"}, {"*", ""}, {"$", ""}, {"/a$b", "/a$b"},
		{"/x*", "/x"}, {"**$", "/"}, {"/fish*.php", "/fishheads/catfish.php?parameters"}, {"/a*b*c$", "/abcabc"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		// The reference regexp reads text; robots paths are escaped ASCII.
		if len(pattern) > 200 || len(path) > 400 || !utf8.ValidString(pattern) || !utf8.ValidString(path) {
			return
		}
		got := matchRobots(pattern, path) >= 0
		if want := robotsRegexp(pattern).MatchString(path); got != want {
			t.Fatalf("matchRobots(%q, %q) = %v, reference %v", pattern, path, got, want)
		}
	})
}

// FuzzParseRobots: any robots.txt parses without panic into rules that
// answer for any path; a file with no group for us or "*" allows all; a
// rule under an empty or unrelated user-agent never applies to us.
func FuzzParseRobots(f *testing.F) {
	for _, s := range []string{
		"User-agent: *\nDisallow: /private\nAllow: /private/ok$\n",
		"User-agent: clawbridge\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent:\nDisallow: /\n",
		"user-agent: a\nuser-agent: b\ndisallow: /x # comment\n",
		"Disallow: /before-any-agent\nUser-agent: *\n",
		"\xff\xfe: \x00\nUser-agent: *\nDisallow: /*$\n",
	} {
		f.Add(s, "/private/x")
	}
	f.Fuzz(func(t *testing.T, body, path string) {
		rules := parseRobots(strings.NewReader(body), "clawbridge/1.0")
		r := &robotsRules{rules: rules}
		r.allowed(path) // must not panic
		// A file with a group for an unrelated agent only has no rules for us.
		if rs := parseRobots(strings.NewReader("User-agent: zz-unrelated-bot\nDisallow: /\n"), "clawbridge/1.0"); len(rs) != 0 {
			t.Fatalf("an unrelated agent's rules applied: %v", rs)
		}
		// A group for an empty user-agent line ahead of the file does not
		// change what applies to us.
		withEmpty := parseRobots(strings.NewReader("User-agent:\nDisallow: /zz-empty-agent\n\n"+body), "clawbridge/1.0")
		for _, rule := range withEmpty {
			if rule.pattern == "/zz-empty-agent" && !strings.Contains(body, "/zz-empty-agent") {
				t.Fatalf("an empty user-agent's rules applied: %v", withEmpty)
			}
		}
	})
}
