package wording

import (
	"fmt"
	"regexp"
	"strings"
)

// dangling is a bracket opened on nothing: "(." at the end, "(, x".
// loosePunct is punctuation after a space or doubled (".;", ",,") where a
// word or the text ends; ".pptx", ":0" and "P:pass;;)" are fine.
var loosePunct = regexp.MustCompile(`(\s[.,;:)]|[.,;:][.,;:])(\s|$)`)

var dangling = regexp.MustCompile(`[(\[（][.,;:]?(\s|$)`)

// pairs are the brackets and quotes a published text must close.
var pairs = map[rune]rune{'(': ')', '[': ']', '{': '}', '（': '）'}

// Fault names what is broken in a text a model reads (a tool or parameter
// description, a summary cut from one), or returns "": unbalanced or
// crossed brackets, an odd number of double quotes or backticks, an empty or
// dangling bracket ("()", "(." as a cut at the first period leaves), doubled
// spaces, a space before punctuation, doubled punctuation (".;", ",,"; an
// ellipsis is fine), and space at either end.
func Fault(s string) string {
	if strings.TrimSpace(s) != s {
		return "space at an end"
	}
	var open []rune
	for _, r := range s {
		if _, ok := pairs[r]; ok {
			open = append(open, r)
			continue
		}
		for o, c := range pairs {
			if r != c {
				continue
			}
			if len(open) == 0 || open[len(open)-1] != o {
				return fmt.Sprintf("%q closes nothing", c)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("%q is never closed", open[len(open)-1])
	}
	for _, q := range []string{`"`, "`"} {
		if strings.Count(s, q)%2 != 0 {
			return "odd number of " + q
		}
	}
	if m := dangling.FindString(s); m != "" {
		return fmt.Sprintf("dangling %q", m)
	}
	t := strings.NewReplacer("...", "…").Replace(s) // an ellipsis is not doubled punctuation
	if m := loosePunct.FindString(t); m != "" {
		return fmt.Sprintf("stray punctuation %q", m)
	}
	for _, bad := range []string{"()", "  "} {
		if strings.Contains(t, bad) {
			return fmt.Sprintf("contains %q", bad)
		}
	}
	return ""
}
