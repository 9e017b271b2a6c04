package literature

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

var exportIDs = []any{"10.1038/nature14539", "arXiv:1810.04805", "10.3969/j.issn.1003-0077.2019.05.001"}

// TestLiteratureExport_BibTeXIntoWorkspace: the .bib goes where PlanOutput
// says (outputs/references.bib, then references-2.bib; or the path given),
// written atomically (no temporary file left beside it).
func TestLiteratureExport_BibTeXIntoWorkspace(t *testing.T) {
	s := newScholarly(t)
	tl, d := s.build(t)
	ws := d.Sandbox.Roots()[0]
	r, data := run(t, tl, map[string]any{"action": "export", "ids": exportIDs})
	if data["path"] != filepath.Join("outputs", "references.bib") || data["count"] != 3 || len(r.Files) != 1 {
		t.Fatalf("%q %v", r.Summary, data)
	}
	b := tooltest.ReadFile(t, filepath.Join(ws, "outputs", "references.bib"))
	text := string(b)
	for _, want := range []string{"@article{lecun2015deep,\n  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey E.}",
		"@misc{devlin2018bert,", "  eprint = {1810.04805},", "@article{anon2019,\n  author = {{王晓明} and {李华} and {张伟} and {刘洋}},",
		"  title = {{基于深度学习的中文分词方法研究}},"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.Count(text, "{") != strings.Count(text, "}") || strings.Count(text, "\n@") != 2 {
		t.Errorf("unbalanced or missing entries:\n%s", text)
	}
	_, data = run(t, tl, map[string]any{"action": "export", "ids": exportIDs[:1]})
	if data["path"] != filepath.Join("outputs", "references-2.bib") {
		t.Fatalf("a second export overwrote the first: %v", data)
	}
	_, data = run(t, tl, map[string]any{"action": "export", "ids": exportIDs[:1], "output": "refs/thesis.bib"})
	if data["path"] != filepath.Join("refs", "thesis.bib") {
		t.Fatal(data)
	}
	for _, dir := range []string{filepath.Join(ws, "outputs"), filepath.Join(ws, "refs")} {
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			if strings.Contains(e.Name(), ".tmp") {
				t.Errorf("temporary file left: %s", e.Name())
			}
		}
	}
}

// TestLiteratureExport_RefusesAndChangesNothing: a path outside the
// workspace, a wrong extension or an existing file without overwrite is a
// clear error and leaves the disk as it was; with overwrite the file is
// replaced.
func TestLiteratureExport_RefusesAndChangesNothing(t *testing.T) {
	s := newScholarly(t)
	tl, d := s.build(t)
	ws := d.Sandbox.Roots()[0]
	outside := filepath.Join(filepath.Dir(ws), "outside.bib")
	for _, out := range []string{"../outside.bib", outside, "/etc/clawbridge-refs.bib"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "export", "ids": exportIDs, "output": out})
		te, ok := tool.AsError(err)
		if !ok || te.Field != "output" || te.Hint == "" {
			t.Errorf("%s: %v", out, err)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("written outside the workspace")
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "export", "ids": exportIDs, "format": "ris", "output": "refs.bib"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "output" {
		t.Fatal(te)
	}
	mine := filepath.Join(ws, "mine.bib")
	tooltest.WriteFile(t, mine, []byte("% my own\n"))
	_, err = tooltest.Run(t, tl, map[string]any{"action": "export", "ids": exportIDs, "output": "mine.bib"})
	if err == nil {
		t.Fatal("an existing file was replaced without overwrite")
	}
	if b, _ := os.ReadFile(mine); string(b) != "% my own\n" {
		t.Fatalf("refused export changed the file: %q", b)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "export", "ids": []any{"10.1038/nature14539", "not an id"}, "output": "new.bib"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	if _, err := os.Stat(filepath.Join(ws, "new.bib")); err == nil {
		t.Fatal("a failed export left a file")
	}
	run(t, tl, map[string]any{"action": "export", "ids": exportIDs[:1], "output": "mine.bib", "overwrite": true})
	if b, _ := os.ReadFile(mine); !strings.HasPrefix(string(b), "@article{lecun2015deep,") {
		t.Fatalf("overwrite: %q", b)
	}
}

// TestLiteratureExport_RISParses: every record opens with TY and closes
// with ER, every line is "XX  - value" with CRLF, and the fields carry the
// parsed records (Chinese names whole).
func TestLiteratureExport_RISParses(t *testing.T) {
	s := newScholarly(t)
	tl, d := s.build(t)
	_, data := run(t, tl, map[string]any{"action": "export", "ids": exportIDs, "format": "ris"})
	b, err := os.ReadFile(filepath.Join(d.Sandbox.Roots()[0], data["path"].(string)))
	if err != nil || data["path"] != filepath.Join("outputs", "references.ris") {
		t.Fatal(data, err)
	}
	if !strings.HasSuffix(string(b), "ER  - \r\n") {
		t.Fatalf("does not end with ER: %q", b)
	}
	line := regexp.MustCompile(`^([A-Z][A-Z0-9])  - (.*)$`)
	var recs []map[string][]string
	var cur map[string][]string
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %d is not a RIS tag line: %q", i+1, l)
		}
		switch tag, val := m[1], m[2]; {
		case tag == "TY":
			if cur != nil {
				t.Fatalf("line %d: TY inside a record", i+1)
			}
			cur = map[string][]string{"TY": {val}}
		case cur == nil:
			t.Fatalf("line %d: %s before TY", i+1, tag)
		case tag == "ER":
			recs = append(recs, cur)
			cur = nil
		default:
			if val == "" {
				t.Fatalf("line %d: empty %s", i+1, tag)
			}
			cur[tag] = append(cur[tag], val)
		}
	}
	if cur != nil || len(recs) != 3 {
		t.Fatalf("%d records, last open: %v", len(recs), cur != nil)
	}
	lecun, bert, zh := recs[0], recs[1], recs[2]
	if lecun["TY"][0] != "JOUR" || strings.Join(lecun["AU"], ";") != "LeCun, Yann;Bengio, Yoshua;Hinton, Geoffrey E." || lecun["T2"][0] != "Nature" ||
		lecun["SP"][0] != "436" || lecun["EP"][0] != "444" || lecun["VL"][0] != "521" || lecun["IS"][0] != "7553" || lecun["DO"][0] != "10.1038/nature14539" || lecun["PY"][0] != "2015" {
		t.Errorf("journal record %v", lecun)
	}
	if bert["TY"][0] != "UNPB" || bert["DA"][0] != "2018/10/11" || len(bert["AU"]) != 4 {
		t.Errorf("preprint record %v", bert)
	}
	if zh["TY"][0] != "JOUR" || strings.Join(zh["AU"], ";") != "王晓明;李华;张伟;刘洋" || zh["TI"][0] != "基于深度学习的中文分词方法研究" || zh["LA"][0] != "zh" {
		t.Errorf("Chinese record %v", zh)
	}
}
