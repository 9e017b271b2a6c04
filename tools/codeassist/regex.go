package codeassist

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Limits of one regex test. RE2 runs in time linear in the input, so these
// only keep the answer small.
const (
	maxPattern        = 4 << 10
	maxSamples        = 100
	maxSampleBytes    = 1 << 20
	maxMatchesPerText = 100
)

// group is one capture group of a match; positions are in characters
// (runes), with byte offsets beside them.
type group struct {
	Index     int    `json:"index"`
	Name      string `json:"name,omitempty"`
	Text      string `json:"text"`
	Matched   bool   `json:"matched"` // false: the group took no part in the match
	Start     int    `json:"start"`
	End       int    `json:"end"`
	ByteStart int    `json:"byte_start"`
	ByteEnd   int    `json:"byte_end"`
}

type sampleResult struct {
	Sample    string  `json:"sample"`
	Matched   bool    `json:"matched"`
	List      []match `json:"matches"`
	Truncated bool    `json:"truncated,omitempty"`
	Replaced  *string `json:"replaced,omitempty"`
}

type match struct {
	Text      string  `json:"text"`
	Start     int     `json:"start"`
	End       int     `json:"end"`
	ByteStart int     `json:"byte_start"`
	ByteEnd   int     `json:"byte_end"`
	Groups    []group `json:"groups,omitempty"`
}

func (a *assistant) regex(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	pattern := c.Args.String("pattern")
	if len(pattern) > maxPattern {
		return nil, tool.Invalid("pattern", fmt.Sprintf("pattern is %d bytes, above the limit of %d", len(pattern), maxPattern), "")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, tool.Invalid("pattern", "not a valid RE2 pattern: "+err.Error(), re2Hint(pattern))
	}
	samples := c.Args.Strings("samples")
	if len(samples) == 0 || len(samples) > maxSamples {
		return nil, tool.Invalid("samples", fmt.Sprintf("give 1 to %d samples, got %d", maxSamples, len(samples)), "")
	}
	names := re.SubexpNames()
	results := make([]sampleResult, 0, len(samples))
	matched := 0
	for _, s := range samples {
		if len(s) > maxSampleBytes {
			return nil, tool.Errorf(tool.CodeTooLarge, "", "a sample is %d bytes, above the limit of %d", len(s), maxSampleBytes)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := sampleResult{Sample: s, List: []match{}}
		locs := re.FindAllStringSubmatchIndex(s, maxMatchesPerText+1)
		if len(locs) > maxMatchesPerText {
			locs, r.Truncated = locs[:maxMatchesPerText], true
		}
		for _, loc := range locs {
			m := match{Text: s[loc[0]:loc[1]], Start: runes(s, loc[0]), End: runes(s, loc[1]), ByteStart: loc[0], ByteEnd: loc[1]}
			for g := 1; g < len(names); g++ {
				b, e := loc[2*g], loc[2*g+1]
				gr := group{Index: g, Name: names[g], Matched: b >= 0, Start: -1, End: -1, ByteStart: b, ByteEnd: e}
				if b >= 0 {
					gr.Text, gr.Start, gr.End = s[b:e], runes(s, b), runes(s, e)
				}
				m.Groups = append(m.Groups, gr)
			}
			r.List = append(r.List, m)
		}
		r.Matched = len(locs) > 0
		if r.Matched {
			matched++
		}
		if c.Args.Has("replace") {
			out := re.ReplaceAllString(s, c.Args.String("replace"))
			r.Replaced = &out
		}
		results = append(results, r)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("the pattern matched %d of %s", matched, wording.Count(len(samples), "sample", "samples")),
		Data: map[string]any{
			"syntax":  "RE2 (Go regexp): linear time; no lookahead, lookbehind or backreferences; \\w, \\d and \\b are ASCII only (use \\p{L} for letters of any script)",
			"groups":  re.NumSubexp(),
			"matched": matched,
			"results": results,
		},
	}, nil
}

// runes is the character offset of byte offset b in s.
func runes(s string, b int) int { return utf8.RuneCountInString(s[:b]) }

// re2Hint explains the usual reason a pattern from another engine fails.
func re2Hint(p string) string {
	for _, x := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.Contains(p, x) {
			return "RE2 has no lookahead or lookbehind; match the surrounding text with a group instead"
		}
	}
	for d := '1'; d <= '9'; d++ {
		if strings.Contains(p, `\`+string(d)) {
			return "RE2 has no backreferences (\\1); capture the part and compare the groups instead"
		}
	}
	if strings.Contains(p, "(?P<") || strings.Contains(p, "(?<") {
		return "named groups are written (?P<name>...) or (?<name>...)"
	}
	return "the pattern must follow RE2 syntax (Go's regexp/syntax)"
}
