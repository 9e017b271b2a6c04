package pdf

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Repairs of inputs pdfcpu refuses but other readers (poppler, Acrobat)
// open. Both work on the input bytes in memory; the file on disk is never
// touched.

var (
	encryptRef = regexp.MustCompile(`/Encrypt\s+(\d+)\s+(\d+)\s+R`)
	startXRef  = regexp.MustCompile(`startxref\s+(\d+)`)
	trailerSz  = regexp.MustCompile(`/Size\s+(\d+)`)
	// Entries the new trailer repeats: pdfcpu wants /Root in the newest.
	trailerID   = regexp.MustCompile(`/ID\s*\[[^\]]*\]`)
	trailerKeep = []*regexp.Regexp{
		regexp.MustCompile(`/Root\s+\d+\s+\d+\s+R`),
		regexp.MustCompile(`/Info\s+\d+\s+\d+\s+R`),
		trailerID,
	}
)

// addEmptyID gives an encrypted file without a trailer /ID the empty one
// its key was derived from (readers derive the key of a file without /ID
// from an empty ID). pdfcpu reads such a file, but every write gives it a
// new ID, which changes the key: its own output, salvage's included, then
// refuses the password. With an empty ID in the trailer, a rewrite keeps
// the first element (the one in the key) empty. Other files are returned
// unchanged.
func addEmptyID(data []byte) []byte {
	e, ok := findEncrypt(data)
	if !ok || trailerID.Match(data) {
		return data
	}
	e.ref += " /ID [<> <>]"
	return e.revise(data)
}

// fixEncryptLength supplies the key length of a V4 (crypt filter)
// encryption dictionary without /Length. pdfcpu then assumes 40 bits and
// derives a wrong key, so even the empty user password "fails"; the AESV2
// and V2 crypt filters of V4 use 128-bit keys (what poppler and pypdf
// assume). The fix is an incremental update: a new revision of the
// encryption dictionary with /Length 128 appended after the file, so no
// offset of the original moves. Anything else is returned unchanged.
func fixEncryptLength(data []byte) []byte {
	e, ok := findEncrypt(data)
	if !ok {
		return data
	}
	if v := e.dict.IntEntry("V"); v == nil || *v != 4 || e.dict.IntEntry("Length") != nil {
		return data
	}
	e.dict["Length"] = types.Integer(128)
	return e.revise(data)
}

// encryptObj is the newest encryption dictionary of a file.
type encryptObj struct {
	objNr, gen int
	dict       types.Dict
	ref        string // the trailer's "/Encrypt n g R", and entries a revision adds
	startXRef  string
}

func findEncrypt(data []byte) (*encryptObj, bool) {
	refs := encryptRef.FindAllSubmatch(data, -1)
	sx := startXRef.FindAllSubmatch(data, -1)
	if len(refs) == 0 || len(sx) == 0 {
		return nil, false
	}
	ref := refs[len(refs)-1]
	objNr, _ := strconv.Atoi(string(ref[1]))
	gen, _ := strconv.Atoi(string(ref[2]))
	head := regexp.MustCompile(fmt.Sprintf(`(?:^|[^0-9])%d\s+%d\s+obj\b`, objNr, gen))
	locs := head.FindAllIndex(data, -1)
	if len(locs) == 0 {
		return nil, false
	}
	body := data[locs[len(locs)-1][1]:]
	end := bytes.Index(body, []byte("endobj"))
	if end < 0 {
		return nil, false
	}
	text := string(body[:end])
	obj, err := model.ParseObject(&text)
	if err != nil {
		return nil, false
	}
	d, ok := obj.(types.Dict)
	if !ok {
		return nil, false
	}
	return &encryptObj{objNr: objNr, gen: gen, dict: d, ref: string(ref[0]), startXRef: string(sx[len(sx)-1][1])}, true
}

// revise appends the changed dictionary as an incremental update: a new
// revision after the file, so no offset of the original moves.
func (e *encryptObj) revise(data []byte) []byte {
	size := e.objNr + 1
	if m := trailerSz.FindAllSubmatch(data, -1); len(m) > 0 {
		if n, err := strconv.Atoi(string(m[len(m)-1][1])); err == nil && n > size {
			size = n
		}
	}
	keep := e.ref
	for _, re := range trailerKeep {
		if m := re.FindAll(data, -1); len(m) > 0 {
			keep += " " + string(m[len(m)-1])
		}
	}
	var b bytes.Buffer
	b.Write(data)
	b.WriteString("\n")
	off := b.Len()
	fmt.Fprintf(&b, "%d %d obj\n%s\nendobj\n", e.objNr, e.gen, e.dict.PDFString())
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n%d 1\n%010d %05d n \ntrailer\n<< /Size %d /Prev %s %s >>\nstartxref\n%d\n%%%%EOF\n", e.objNr, off, e.gen, size, e.startXRef, keep, xref)
	return b.Bytes()
}

// isValidation reports whether err is pdfcpu's validator refusing a file
// it could parse.
func isValidation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "validation error")
}

// optionalParts are the catalog and page entries a reader can do without:
// bookmarks and actions run on opening or on page events. pdfcpu's
// validator refuses a whole file for one bad outline item or action
// (outline items without /Title, actions of type "D", JavaScript in a
// PDF 1.1 file, GoToR without /D), while poppler shows the pages. drop
// removes the part from a context and reports whether it was there.
var optionalParts = []struct {
	what string
	drop func(ctx *model.Context) bool
}{
	{"the bookmarks (outline)", dropCatalogEntry("Outlines")},
	{"the action run on opening", dropCatalogEntry("OpenAction")},
	{"the document's event actions", dropCatalogEntry("AA")},
	{"the pages' event actions", dropPageActions},
}

func dropCatalogEntry(key string) func(ctx *model.Context) bool {
	return func(ctx *model.Context) bool {
		root, err := ctx.Catalog()
		if err != nil {
			return false
		}
		_, ok := root.Find(key)
		root.Delete(key)
		return ok
	}
}

// dropPageActions removes the /AA of every page.
func dropPageActions(ctx *model.Context) bool {
	found := false
	for i := 1; i <= ctx.PageCount; i++ {
		if pd, _, _, err := ctx.PageDict(i, false); err == nil && pd != nil {
			if _, ok := pd.Find("AA"); ok {
				pd.Delete("AA")
				found = true
			}
		}
	}
	return found
}

// salvage drops the optional parts pdfcpu's validator refuses, one more at
// a time until the file validates, and returns the rewritten file with what
// was dropped. It fails with the validator's reason when dropping them
// does not help: the file is then damaged where it matters (pages,
// content, cross references). pdfcpu's validator changes the context it
// walks, and a second walk after a failed one fails on its own leftovers
// ("corrupt Kids entry"), so every attempt starts from a fresh read.
func salvage(data []byte, cf *model.Configuration) ([]byte, []string, error) {
	fresh := func() (*model.Context, error) {
		ctx, err := api.ReadContext(bytes.NewReader(data), cf)
		if err != nil {
			return nil, err
		}
		return ctx, ctx.EnsurePageCount()
	}
	ctx, err := fresh()
	if err != nil {
		return nil, nil, err
	}
	verr := api.ValidateContext(ctx)
	if verr == nil {
		return data, nil, nil
	}
	var dropped []string
	for i, part := range optionalParts {
		if ctx, err = fresh(); err != nil {
			return nil, nil, err
		}
		if !part.drop(ctx) {
			continue
		}
		dropped = append(dropped, part.what)
		for _, earlier := range optionalParts[:i] {
			earlier.drop(ctx)
		}
		if verr = api.ValidateContext(ctx); verr == nil {
			break
		}
	}
	if verr != nil {
		return nil, nil, verr
	}
	var b bytes.Buffer
	if err := api.WriteContext(ctx, &b); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), dropped, nil
}
