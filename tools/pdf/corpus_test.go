package pdf

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// corpusPDFs lists the PDFs of the pdfcpu and pypdf corpora under
// $CLAWBRIDGE_CORPUS or <repo>/testdata/corpus (scripts/fetch-corpora.sh),
// skipping the test when they are absent.
func corpusPDFs(t *testing.T) []string {
	root := os.Getenv("CLAWBRIDGE_CORPUS")
	if root == "" {
		root = filepath.Join("..", "..", "testdata", "corpus")
	}
	var files []string
	for _, name := range []string{"pdfcpu", "pypdf"} {
		_ = filepath.WalkDir(filepath.Join(root, name), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".pdf") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skipf("no PDF corpus under %s (run scripts/fetch-corpora.sh)", root)
	}
	sort.Strings(files)
	return files
}

var popplerPages = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)

// poppler runs a poppler program with a time limit.
func poppler(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	return string(out), err
}

// popplerCount is pdfinfo's page count, or -1 when poppler cannot open the
// file without a password.
func popplerCount(path string) int {
	out, err := poppler("pdfinfo", path)
	if err != nil {
		return -1
	}
	m := popplerPages.FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestCorpus_PDF runs pdf_tool over the public corpora and reports, against
// poppler: page counts equal to pdfinfo's; the read actions (info, split,
// list_form_fields) that accept the files poppler reads; encrypt then decrypt
// round trips whose pages and text equal poppler's on the original; and
// what optimize did. Figures are logged; only crashes fail.
func TestCorpus_PDF(t *testing.T) {
	tooltest.NeedProgram(t, "pdfinfo")
	files := corpusPDFs(t)
	e := newEnv(t)
	var readable, countEqual, infoOK, splitTried, splitOK, formTried, formOK, formFieldsSeen, formFieldsAgree, trips, tripOK, alreadyEncrypted, optimized, kept, optGrew int
	var refused []string
	for i, f := range files {
		st, err := os.Stat(f)
		if err != nil || st.Size() > 8<<20 {
			continue
		}
		want := popplerCount(f)
		if want < 0 {
			continue // encrypted with a password, or broken for poppler too
		}
		readable++
		data, _ := os.ReadFile(f)
		rel := e.put(fmt.Sprintf("c%d/%s", i, filepath.Base(f)), data)
		short := strings.TrimPrefix(f, filepath.Join("..", "..", "testdata", "corpus")+"/")
		res, err := tooltest.Run(t, e.tool, map[string]any{"action": "page_count", "path": rel})
		if err == nil && res.Data.(map[string]any)["page_count"] == want {
			countEqual++
		} else {
			refused = append(refused, fmt.Sprintf("page_count %s: %v", short, errOr(err, res)))
		}
		if _, err := tooltest.Run(t, e.tool, map[string]any{"action": "info", "path": rel}); err == nil {
			infoOK++
		} else {
			refused = append(refused, fmt.Sprintf("info %s: %v", short, err))
		}
		if want >= 2 && want <= 50 {
			splitTried++
			if _, err := tooltest.Run(t, e.tool, map[string]any{"action": "split", "path": rel, "span": want - 1}); err == nil {
				splitOK++
			} else {
				refused = append(refused, fmt.Sprintf("split %s: %v", short, err))
			}
		}
		pinfo, _ := poppler("pdfinfo", f)
		if strings.Contains(pinfo, "Form:            AcroForm") {
			formTried++
			if res, err := tooltest.Run(t, e.tool, map[string]any{"action": "list_form_fields", "path": rel}); err == nil {
				formOK++
				listed, _ := res.Data.(map[string]any)["fields"].([]map[string]any) // []any{} when none
				fields, agreed := formAgreement(t, f, listed)
				formFieldsSeen += fields
				formFieldsAgree += agreed
				if agreed < fields {
					refused = append(refused, fmt.Sprintf("list_form_fields %s: %d of %d fields agree with qpdf", short, agreed, fields))
				}
			} else {
				refused = append(refused, fmt.Sprintf("list_form_fields %s: %v", short, err))
			}
		}
		if res, err := tooltest.Run(t, e.tool, map[string]any{"action": "optimize", "path": rel}); err == nil {
			d := res.Data.(map[string]any)
			if d["kept_original"] == true {
				kept++
			} else {
				optimized++
				if d["after_bytes"].(int64) > int64(d["before_bytes"].(int)) {
					optGrew++
				}
			}
		}
		// Round trip: encrypt with both passwords, decrypt with the owner's.
		// encrypt refuses an input that is encrypted already (decrypt it
		// first), so those are counted apart.
		if strings.Contains(pinfo, "Encrypted:       yes") {
			alreadyEncrypted++
			continue
		}
		trips++
		enc := fmt.Sprintf("c%d/enc.pdf", i)
		dec := fmt.Sprintf("c%d/dec.pdf", i)
		if _, err := tooltest.Run(t, e.tool, map[string]any{"action": "encrypt", "path": rel, "output": enc, "owner_password": "owner-pw", "user_password": "user-pw"}); err != nil {
			refused = append(refused, fmt.Sprintf("encrypt %s: %v", short, err))
			continue
		}
		if _, err := tooltest.Run(t, e.tool, map[string]any{"action": "decrypt", "path": enc, "output": dec, "password": "owner-pw"}); err != nil {
			refused = append(refused, fmt.Sprintf("decrypt %s: %v", short, err))
			continue
		}
		origText, err1 := poppler("pdftotext", f, "-")
		decText, err2 := poppler("pdftotext", e.abs(dec), "-")
		if popplerCount(e.abs(dec)) == want && (err1 != nil || (err2 == nil && squash(decText) == squash(origText))) {
			tripOK++
		} else {
			refused = append(refused, fmt.Sprintf("round trip %s: pages or text differ from the original", short))
		}
	}
	for _, r := range refused {
		t.Log(r)
	}
	t.Logf("corpus: pdf_tool on %d PDFs poppler opens without a password (of %d): page_count equal to pdfinfo on %d, info accepts %d", readable, len(files), countEqual, infoOK)
	t.Logf("corpus: split accepts %d of %d (2-50 pages); list_form_fields reads %d of %d AcroForm files", splitOK, splitTried, formOK, formTried)
	if _, err := exec.LookPath("qpdf"); err == nil {
		t.Logf("corpus: form fields whose name, type and value agree with qpdf --json: %d of %d", formFieldsAgree, formFieldsSeen)
	}
	t.Logf("corpus: encrypt/decrypt round trips with pages and text equal to poppler's on the original: %d of %d unencrypted inputs (%d inputs already encrypted, which encrypt refuses: decrypt first)", tripOK, trips, alreadyEncrypted)
	t.Logf("corpus: optimize wrote a smaller file for %d, kept the original (not smaller) for %d, wrote a bigger one for %d", optimized, kept, optGrew)
}

func errOr(err error, res any) any {
	if err != nil {
		return err
	}
	return res
}

func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// formAgreement counts the listed fields whose name, type and (text and
// choice) value agree with qpdf's reading; without qpdf, none are counted,
// nor signature fields qpdf does not list.
func formAgreement(t *testing.T, path string, fields []map[string]any) (seen, agreed int) {
	q := qpdfFields(t, path)
	if q == nil {
		return 0, 0
	}
	for _, f := range fields {
		qf, ok := q[f["name"].(string)]
		typ := f["type"]
		if !ok && typ == "signature" {
			continue // qpdf lists only fields with a widget on a page
		}
		seen++
		if typ == "date" {
			typ = "text"
		}
		if !ok || (typ != qf.typ() && !qpdfWidgetFlags(typ, qf)) {
			continue
		}
		want := qf.text()
		if typ == "listbox" {
			if s, ok := want.(string); ok {
				want = []string{s}
				if s == "" {
					want = []string{}
				}
			}
		}
		switch typ {
		case "text", "combobox", "listbox":
			if toJSON(f["value"]) != toJSON(want) {
				continue
			}
		}
		agreed++
	}
	return seen, agreed
}
