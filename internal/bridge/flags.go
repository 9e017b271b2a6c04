package bridge

import (
	"fmt"
	"regexp"
	"strings"
)

// Flag is a warning about a tool's text: instructions aimed at the model
// (tool poisoning) or characters a person reading the description cannot see.
type Flag struct {
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
}

// instructionRE matches phrases that address the model rather than describe
// the tool. It is a tripwire for status, not a filter: a match is shown to
// the person who runs `clawbridge bridge status`.
var instructionRE = regexp.MustCompile(`(?i)(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+)?(previous|prior|above|earlier|other|system)\s+(instructions|prompts?|rules|messages)` +
	`|do\s+not\s+(tell|inform|mention\s+(this\s+)?to)\s+the\s+user` +
	`|<\s*(important|system|instructions?)\s*>` +
	`|you\s+must\s+(first\s+)?(read|send|call|include|pass)\s` +
	`|(read|cat|send|upload)\s+[^.]{0,40}(~/\.ssh|id_rsa|\.env\b|credentials|private key)` +
	`|忽略(之前|以上|先前|所有)的?(指令|指示|提示)|不要告诉用户`)

// flagText inspects one tool's name, description and schema text.
func flagText(tool, text string) []Flag {
	var out []Flag
	if m := instructionRE.FindString(text); m != "" {
		out = append(out, Flag{tool, fmt.Sprintf("instruction-like text aimed at the model: %q", m)})
	}
	if n := hiddenRunes(text); n > 0 {
		out = append(out, Flag{tool, fmt.Sprintf("%d hidden Unicode character(s) (tag characters U+E0000-U+E007F, bidi controls or zero-width) in its text", n)})
	}
	return out
}

// hiddenRunes counts characters that render as nothing: Unicode tag
// characters (which can spell out a hidden prompt), bidi overrides and
// zero-width characters.
func hiddenRunes(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0xE0000 && r <= 0xE007F,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069,
			r == 0x200B, r == 0x200C, r == 0x200D, r == 0x2060, r == 0xFEFF:
			n++
		}
	}
	return n
}

func flagTools(tools []ToolDef) []Flag {
	var out []Flag
	for _, t := range tools {
		out = append(out, flagText(t.Name, strings.Join([]string{t.Name, t.Title, t.Description, string(t.InputSchema)}, "\n"))...)
	}
	return out
}
