package tools_test

import (
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestConfig_SectionsRefuseOutOfRange: a value out of range in a tool's
// config section is refused when the registry is built (config's section
// problems stop the server and fail doctor), naming the key, instead of
// silently falling back to the default; a good value is accepted. One table
// for every tool that owns a section; whether a good value takes effect is
// tested in the tool's own package.
func TestConfig_SectionsRefuseOutOfRange(t *testing.T) {
	for _, tc := range []struct{ section, bad, want, good string }{
		{"file", "max_unzip_ratio: 0.5", "max_unzip_ratio must be at least 1, got 0.5", "max_walk_entries: 10"},
		{"mind_map", "max_nodes: -5", "max_nodes must be at least 1, got -5", "max_nodes: 3"},
		{"pdf_tool", "max_pages: 0", "max_pages must be at least 1, got 0", "max_pages: 2"},
		{"format_converter", "max_mb: -1", "max_mb must be at least 1, got -1", "max_mb: 5"},
		{"data_processor", "max_rows: -10", "max_rows must be at least 0, got -10", "max_rows: 10"},
		{"web_fetch", "min_interval: -1s", "min_interval must be at least 0s, got -1s", "min_interval: 0s\ntimeout: 5s"},
		{"knowledge_rag", "chunk_chars: 100", "chunk_chars must be at least 200, got 100", "chunk_chars: 400"},
		{"knowledge_rag", "overlap_chars: 900", "overlap_chars must be at most half of chunk_chars (500), got 900", "overlap_chars: 0"},
		{"web_fetch", "timeout: 0s", "timeout must be at least 1ms, got 0s", "timeout: 5s"},
		{"search", "backends: [bing]", `backends: unknown backend "bing"`, "backends: [duckduckgo]\nmin_interval: 0s"},
		{"search", "backends: [searxng]", "searxng.base_url is required", "backends: [searxng]\nsearxng: {base_url: \"http://127.0.0.1:8888\"}"},
		{"search", "cache_ttl: -1m", "cache_ttl must be at least 0s, got -1m0s", "cache_ttl: 0s"},
		{"weather", "timeout: 0s", "timeout must be at least 1ms, got 0s", "timeout: 3s"},
		{"weather", `archive_url: ""`, "archive_url must not be empty", "archive_url: http://127.0.0.1:9"},
		{"literature_search", "min_interval: -1s", "min_interval must be at least 0s, got -1s", "min_interval: 0s"},
		{"ocr", "max_pixels: 0", "max_pixels must be at least 1, got 0", "max_pixels: 1000"},
		{"ocr", "lang: \"eng;x\"", "lang must be tesseract languages joined by +", "lang: eng"},
		{"speech", "max_duration_seconds: 0", "max_duration_seconds must be at least 1, got 0", "max_duration_seconds: 60"},
		{"speech", "api_key_env: K", "api_key_env needs transcribe_url", "transcribe_url: http://127.0.0.1:9/v1\napi_key_env: K"},
		{"gif_maker", "max_frames: 0", "max_frames must be at least 1, got 0", "max_frames: 10"},
		{"gif_maker", "max_output_mb: -1", "max_output_mb must be at least 1, got -1", "max_output_mb: 5"},
		{"image_generator", "max_pixels: 0", "max_pixels must be at least 1, got 0", "max_pixels: 1000"},
		{"image_generator", "generate: {model: dall-e-3}", "generate.base_url is required with generate.model or generate.api_key_env", "generate: {base_url: \"http://127.0.0.1:9/v1\", model: dall-e-3}"},
		{"image_generator", "generate: {base_url: \"ftp://x\", model: m}", "generate.base_url must be an http(s) URL", "generate: {base_url: \"https://api.openai.com/v1\", model: gpt-image-1, api_key_env: OPENAI_API_KEY}"},
		{"image_generator", "generate: {base_url: \"http://127.0.0.1:9/v1\", model: m, timeout: 0s}", "generate.timeout must be at least 1s, got 0s", "generate: {base_url: \"http://127.0.0.1:9/v1\", model: m, timeout: 30s}"},
		{"id_photo", "max_pixels: 0", "max_pixels must be at least 1, got 0", "max_pixels: 1000000"},
		{"id_photo", "min_face_pixels: 10", "min_face_pixels must be at least 24, got 10", "min_face_pixels: 120"},
		{"email", "security: none", `security must be starttls or tls, got "none"`, "security: tls"},
		{"email", "username: bot\npassword_env: \"\"", "password_env is required with username", "username: bot\npassword_env: SMTP_PASSWORD"},
		{"email", "host: smtp.example.org", "from is required when host is set", "host: smtp.example.org\nfrom: bot@example.org"},
		{"notify", "max_parts: 0", "max_parts must be at least 1, got 0", "max_parts: 3"},
		{"notify", "targets:\n  - {name: team, kind: slack, url: \"https://hooks.slack.com/services/T/B/x\"}", "targets[0] (team): a slack URL carries its credential",
			"targets:\n  - {name: team, kind: slack, url_env: SLACK_WEBHOOK_URL}"},
		{"cron", "tick: 1ms", "tick must be at least 10ms, got 1ms", "tick: 100ms\nmissed_after: 500ms"},
		{"cron", "timezone: Mars/Olympus", `timezone: unknown IANA time zone "Mars/Olympus"`, "timezone: Asia/Shanghai"},
		{"cron", "tick: 1s\nmissed_after: 500ms", "missed_after must be at least 1s, got 500ms", "missed_after: 2m"},
		{"calendar", "work_start: \"18:00\"\nwork_end: \"09:00\"", "work_end (09:00) must be after work_start (18:00)", "work_start: \"08:30\"\nwork_end: \"17:30\""},
		{"calendar", "work_days: [1, 7]", "work_days: 7 is not a day (0 = Sunday ... 6 = Saturday)", "work_days: [0, 6]"},
		{"calendar", "timezone: Nowhere/Land", `timezone: unknown IANA time zone "Nowhere/Land"`, "timezone: Europe/Berlin"},
		{"diary", "max_chars: 0", "max_chars must be at least 1, got 0", "max_chars: 5000"},
		{"education_tool", "max_questions: 0", "max_questions must be at least 1, got 0", "max_questions: 20"},
		{"education_tool", "timezone: Nowhere/Land", `timezone: unknown IANA time zone "Nowhere/Land"`, "timezone: Europe/Berlin"},
		{"finance", "max_import_mb: 0", "max_import_mb must be at least 1, got 0", "max_import_mb: 5"},
		{"finance", `currency: ""`, "currency must not be empty", "currency: EUR"},
		{"finance", "timezone: Mars/Base", `timezone: unknown IANA time zone "Mars/Base"`, "timezone: Asia/Shanghai"},
		{"python_runner", "memory_mb: 10", "memory_mb must be at least 64, got 10", "memory_mb: 256"},
		{"python_runner", "timeout: 0s", "timeout must be at least 1s, got 0s", "timeout: 30s\nallow_unsandboxed: true"},
		{"ai_writer", "max_tokens: 1", "max_tokens must be at least 16, got 1", "max_tokens: 512"},
		{"ai_writer", "endpoint: {base_url: ftp://x}", "endpoint.base_url must be an http(s) URL", "endpoint: {base_url: \"http://127.0.0.1:9/v1\", model: m, api_key_env: KEY}"},
		{"literature_search", `crossref_url: ""`, "openalex_url, arxiv_url and crossref_url must not be empty", "mailto: lab@example.org"},
	} {
		t.Run(tc.section+"/"+tc.bad, func(t *testing.T) {
			d := tooltest.Deps(t)
			tooltest.ConfigSection(t, d, tc.section, tc.bad)
			tools.All(d) // a refused section may also fail its constructor
			tooltest.SectionRefused(t, d, tc.section, "tools."+tc.section+": "+tc.want)

			d = tooltest.Deps(t)
			tooltest.ConfigSection(t, d, tc.section, tc.good)
			if _, err := tools.All(d); err != nil {
				t.Fatalf("a good section: %v", err)
			}
			if p := d.Config.SectionProblems(); len(p) != 0 {
				t.Fatalf("a good section refused: %v", p)
			}
		})
	}
}

// TestConfig_EveryToolSectionRefusesUnknownKey: for every tool that reads a
// config section (found by building the registry, not listed here), an
// unknown key in it makes the registry refuse to build, with an error that
// names the tool's section and the key — whatever the tool's own code does
// with the error: one policy for all.
func TestConfig_EveryToolSectionRefusesUnknownKey(t *testing.T) {
	d := tooltest.Deps(t)
	if _, err := tools.All(d); err != nil {
		t.Fatal(err)
	}
	sections := d.Config.SectionsRead()
	if len(sections) < 20 {
		t.Fatalf("only %d tools read a section: %v", len(sections), sections)
	}
	for _, name := range sections {
		t.Run(name, func(t *testing.T) {
			d := tooltest.Deps(t)
			tooltest.ConfigSection(t, d, name, "no_such_key: 1")
			built, err := tools.All(d)
			if err == nil {
				t.Fatalf("built %d tools with an unknown key in tools.%s", len(built), name)
			}
			if want := `"tools.` + name + `.no_such_key"`; !strings.Contains(err.Error(), want) {
				t.Fatalf("the refusal does not name %s: %v", want, err)
			}
		})
	}
}
