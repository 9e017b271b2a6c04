package diary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type rig struct {
	t tool.Tool
	d *tool.Deps
}

func newRig(t *testing.T, db *storetest.DB) *rig {
	t.Helper()
	x, tl, d := tooltest.Records(t, db, lifecycle, "Asia/Shanghai")
	x.now = func() time.Time { return time.Date(2024, 4, 30, 17, 0, 0, 0, time.UTC) } // 05-01 01:00 in Shanghai
	return &rig{t: tl, d: d}
}

func (r *rig) must(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.MustRun(t, r.t, args)
}

func (r *rig) count(t *testing.T, table string) int {
	t.Helper()
	return tooltest.Count(t, r.d, `SELECT COUNT(*) FROM `+table)
}

func ids(m map[string]any) []string {
	var out []string
	for _, e := range m["entries"].([]map[string]any) {
		out = append(out, e["id"].(string))
	}
	return out
}

// TestDiarySearch_WordsAndBigrams: Latin words case-folded, Chinese by
// bigrams and single characters; every term must match.
func TestDiarySearch_WordsAndBigrams(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		for _, tc := range []struct {
			q, text string
			want    bool
		}{{"旅行", "今天去杭州旅行了", true}, {"杭州 旅行", "今天去杭州旅行了", true}, {"行", "旅行", true}, {"旅游", "今天去杭州旅行了", false},
			{"Hiking", "went hiking with Ann", true}, {"hike", "went hiking", false}, {"西湖walk", "西湖 walk", true}} {
			if got := matches(terms(tc.q), terms(tc.text)); got != tc.want {
				t.Errorf("search %q in %q = %v", tc.q, tc.text, got)
			}
		}
		r := newRig(t, db)
		a := r.must(t, map[string]any{"action": "add", "text": "今天去杭州旅行了，西湖很美。", "mood": "开心", "tags": []any{"travel"}, "date": "2024-04-20"})
		r.must(t, map[string]any{"action": "add", "text": "Long day at work.", "mood": "tired"})
		if got := ids(r.must(t, map[string]any{"action": "search", "query": "旅行 西湖"})); len(got) != 1 || got[0] != a["id"] {
			t.Fatalf("search = %v", got)
		}
		if got := ids(r.must(t, map[string]any{"action": "search", "query": "WORK"})); len(got) != 1 {
			t.Fatalf("search work = %v", got)
		}
		if got := ids(r.must(t, map[string]any{"action": "list", "tag": "travel"})); len(got) != 1 {
			t.Fatalf("list tag = %v", got)
		}
		if got := r.must(t, map[string]any{"action": "get", "date": "2024-05-01"}); len(ids(got)) != 1 { // today in Shanghai
			t.Fatalf("today = %v", got)
		}
	})
}

// TestDiaryUpdate_KeepsVersions and delete/restore keep every version.
func TestDiaryUpdate_KeepsVersions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db)
		id := r.must(t, map[string]any{"action": "add", "text": "first", "date": "2024-04-01"})["id"].(string)
		r.must(t, map[string]any{"action": "update", "id": id, "text": "second"})
		r.must(t, map[string]any{"action": "update", "id": id, "mood": "calm"})
		g := r.must(t, map[string]any{"action": "get", "id": id, "versions": true})["entries"].([]map[string]any)[0]
		vs := g["versions"].([]map[string]any)
		if g["text"] != "second" || g["version"] != 3 || len(vs) != 2 || vs[0]["text"] != "first" || vs[1]["text"] != "second" || vs[1]["mood"] != nil {
			t.Fatalf("get = %v", g)
		}
		r.must(t, map[string]any{"action": "delete", "id": id})
		if r.count(t, "diary_entries")+r.count(t, "diary_versions") != 0 {
			t.Fatal("not deleted")
		}
		r.must(t, map[string]any{"action": "restore", "id": id})
		g = r.must(t, map[string]any{"action": "get", "id": id, "versions": true})["entries"].([]map[string]any)[0]
		if g["mood"] != "calm" || len(g["versions"].([]map[string]any)) != 2 {
			t.Fatalf("restored = %v", g)
		}
	})
}

// TestDiaryBadInput_NamesFieldWritesNothing.
func TestDiaryBadInput_NamesFieldWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db)
		id := r.must(t, map[string]any{"action": "add", "text": "kept", "date": "2024-04-01"})["id"].(string)
		for _, tc := range []struct {
			args  map[string]any
			field string
		}{
			{map[string]any{"action": "add"}, "text"},
			{map[string]any{"action": "add", "text": "   "}, "text"},
			{map[string]any{"action": "add", "text": "x", "date": "2024-02-30"}, "date"},
			{map[string]any{"action": "add", "text": "x", "tags": []any{"ok", " "}}, "tags"},
			{map[string]any{"action": "update", "id": id, "text": ""}, "text"},
			{map[string]any{"action": "update", "id": id, "date": "April"}, "date"},
			{map[string]any{"action": "update", "id": id}, "text"},
			{map[string]any{"action": "update", "id": "nope", "text": "x"}, "id"},
			{map[string]any{"action": "delete", "id": "nope"}, "id"},
			{map[string]any{"action": "list", "from": "2024-13"}, "from"},
			{map[string]any{"action": "search", "query": "…！"}, "query"},
		} {
			tooltest.RefusedNaming(t, r.t, tc.args, tc.field)
		}
		if r.count(t, "diary_entries") != 1 || r.count(t, "diary_versions") != 0 {
			t.Fatal("a refused call wrote")
		}
	})
}

// TestDiaryExport_Markdown: one file, or one per month.
func TestDiaryExport_Markdown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db)
		r.must(t, map[string]any{"action": "add", "text": "三月的事", "date": "2024-03-05", "mood": "ok", "tags": []any{"a", "b"}})
		r.must(t, map[string]any{"action": "add", "text": "April things", "date": "2024-04-02"})
		ws := r.d.Config.Workspace[0]
		one := r.must(t, map[string]any{"action": "export"})
		b, _ := os.ReadFile(filepath.Join(ws, one["path"].(string)))
		if want := "# Diary\n\n## 2024-03-05\n\n*Mood: ok · Tags: #a #b*\n\n三月的事\n\n## 2024-04-02\n\nApril things\n"; string(b) != want {
			t.Fatalf("markdown:\n%s", b)
		}
		per := r.must(t, map[string]any{"action": "export", "per_month": true})
		ps := per["paths"].([]string)
		if len(ps) != 2 || filepath.Base(ps[0]) != "2024-03.md" || filepath.Base(ps[1]) != "2024-04.md" {
			t.Fatalf("per month = %v", ps)
		}
		b, _ = os.ReadFile(filepath.Join(ws, ps[1]))
		if !strings.HasPrefix(string(b), "# Diary 2024-04\n") || strings.Contains(string(b), "三月") {
			t.Fatalf("april file:\n%s", b)
		}
		if _, err := tooltest.Run(t, r.t, map[string]any{"action": "export", "per_month": true, "output_dir": per["dir"]}); err == nil {
			t.Fatal("replaced monthly files without overwrite")
		}
	})
}

// TestDiarySummaries_OneIsSingular: one entry is "1 entry" in the list,
// search and export summaries; two are "2 entries".
func TestDiarySummaries_OneIsSingular(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db)
		summary := func(args map[string]any) string {
			t.Helper()
			res, err := tooltest.Run(t, r.t, args)
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			return res.Summary
		}
		r.must(t, map[string]any{"action": "add", "date": "2024-04-20", "text": "walked by the river"})
		for _, c := range []struct {
			args map[string]any
			want string
		}{
			{map[string]any{"action": "list"}, "1 entry."},
			{map[string]any{"action": "search", "query": "river"}, `1 entry matches "river".`},
			{map[string]any{"action": "export", "output": "one.md"}, "Exported 1 entry to "},
		} {
			if got := summary(c.args); !strings.HasPrefix(got, c.want) {
				t.Errorf("%v: %q, want %q", c.args["action"], got, c.want)
			}
		}
		r.must(t, map[string]any{"action": "add", "date": "2024-04-21", "text": "the river again"})
		if got := summary(map[string]any{"action": "search", "query": "river"}); got != `2 entries match "river".` {
			t.Errorf("two: %q", got)
		}
	})
}
