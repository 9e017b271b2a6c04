package pdf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (p *pdfTool) info(_ context.Context, c *tool.Call) (*tool.Result, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	pw := in.pw
	info, err := api.PDFInfo(in.reader(), rel(p.d.Sandbox, in.abs), nil, false, in.conf())
	if err != nil && in.retry(err) {
		info, err = api.PDFInfo(in.reader(), rel(p.d.Sandbox, in.abs), nil, false, in.conf())
	}
	if err != nil {
		return nil, pdfErr("path", c.Args.String("path"), pw, err)
	}
	// Distinct page sizes in page order (PDFInfo fills them only for a
	// page selection).
	dims, err := api.PageDims(in.reader(), in.conf())
	if err != nil {
		return nil, pdfErr("path", c.Args.String("path"), pw, err)
	}
	sizes := []map[string]float64{}
	seen := map[[2]float64]bool{}
	for _, d := range dims {
		k := [2]float64{round1(d.Width), round1(d.Height)}
		if !seen[k] {
			seen[k] = true
			sizes = append(sizes, map[string]float64{"width_pt": k[0], "height_pt": k[1]})
		}
	}
	data := map[string]any{
		"path":        rel(p.d.Sandbox, in.abs),
		"size_bytes":  len(in.data),
		"version":     info.Version,
		"page_count":  info.PageCount,
		"page_sizes":  sizes,
		"title":       info.Title,
		"author":      info.Author,
		"subject":     info.Subject,
		"creator":     info.Creator,
		"producer":    info.Producer,
		"created":     info.CreationDate,
		"modified":    info.ModificationDate,
		"keywords":    info.Keywords,
		"encrypted":   info.Encrypted,
		"has_form":    info.Form,
		"watermarked": info.Watermarked,
		"signatures":  info.Signatures,
		"tagged":      info.Tagged,
		"linearized":  info.Linearized,
		"bookmarks":   info.Outlines,
		"attachments": len(info.Attachments),
		"permissions": permissionNames(info.Permissions, info.Encrypted),
		"properties":  info.Properties,
	}
	return &tool.Result{Summary: fmt.Sprintf("%s: %s, PDF %s", rel(p.d.Sandbox, in.abs), wording.Count(info.PageCount, "page", "pages"), info.Version), Data: in.note(data)}, nil
}

func round1(f float64) float64 { return float64(int(f*10+0.5)) / 10 }

func (p *pdfTool) pageCount(_ context.Context, c *tool.Call) (*tool.Result, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s has %s", rel(p.d.Sandbox, d.abs), wording.Count(d.n, "page", "pages")),
		Data: map[string]any{"path": rel(p.d.Sandbox, d.abs), "page_count": d.n}}, nil
}

func (p *pdfTool) merge(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	paths := c.Args.Strings("paths")
	if len(paths) < 2 {
		return nil, tool.Invalid("paths", "merge needs at least two PDFs in 'paths'", "")
	}
	ins := make([]*input, len(paths))
	var rss []io.ReadSeeker
	var abss []string
	for i, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in, err := p.readInput(fmt.Sprintf("paths[%d]", i), path)
		if err != nil {
			return nil, err
		}
		ins[i] = in
		rss = append(rss, in.reader())
		abss = append(abss, in.abs)
		c.Progress(float64(i+1), float64(len(paths)+1), "read "+path)
	}
	out, err := p.output(c, stem(paths[0])+"_merged", ".pdf", abss...)
	if err != nil {
		return nil, err
	}
	// Inputs are parsed once, by the merge itself (a separate check of
	// every file doubled the time); only on failure is each one examined
	// to name the culprit.
	merge := func(w io.Writer) error { return api.MergeRaw(rss, w, false, conf("")) }
	f, err := out.WriteFrom(".pdf", merge)
	if isValidation(err) {
		// Salvage the inputs the validator refuses, and merge once more.
		salvaged := false
		for i, in := range ins {
			if _, verr := api.ReadValidateAndOptimize(in.reader(), conf("")); verr != nil && in.retry(verr) {
				salvaged = true
			}
			rss[i] = in.reader()
		}
		if salvaged {
			f, err = out.WriteFrom(".pdf", merge)
		}
	}
	if err != nil {
		for i, path := range paths {
			if _, _, perr := p.readPDF(fmt.Sprintf("paths[%d]", i), path, ""); perr != nil {
				return nil, perr
			}
		}
		return nil, opErr("merge", err)
	}
	total := 0
	if mctx, err := api.ReadContext(bytes.NewReader(readBack(out.Path(".pdf"))), conf("")); err == nil && mctx.EnsurePageCount() == nil {
		total = mctx.PageCount
	}
	c.Progress(float64(len(paths)+1), float64(len(paths)+1), "merged")
	return &tool.Result{
		Summary: fmt.Sprintf("merged %s (%s) into %s", wording.Count(len(paths), "PDF", "PDFs"), wording.Count(total, "page", "pages"), rel(p.d.Sandbox, out.Path(".pdf"))),
		Data:    mergeNotes(ins, map[string]any{"output": rel(p.d.Sandbox, out.Path(".pdf")), "page_count": total, "inputs": len(paths)}),
		Files:   []tool.File{f},
	}, nil
}

// mergeNotes names the inputs salvage had to repair.
func mergeNotes(ins []*input, data map[string]any) map[string]any {
	var notes []string
	for i, in := range ins {
		if len(in.repaired) > 0 {
			notes = append(notes, fmt.Sprintf("paths[%d]: %s", i, strings.Join(in.repaired, ", ")))
		}
	}
	if len(notes) > 0 {
		data["repaired"] = "pdfcpu refused parts of some inputs; the result leaves out " + strings.Join(notes, "; ")
	}
	return data
}

func readBack(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

func (p *pdfTool) split(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	n := in.n
	// Ranges [from, thru] of the output files.
	type span struct{ from, thru int }
	var spans []span
	if c.Args.Has("split_at") {
		var at []int
		if err := c.Args.Decode("split_at", &at); err != nil {
			return nil, err
		}
		prev := 1
		for _, a := range at {
			if a <= prev || a > n {
				return nil, tool.Invalid("split_at", fmt.Sprintf("split_at must be increasing page numbers between 2 and %d, got %v", n, at), "e.g. [4, 10] splits before pages 4 and 10")
			}
			spans = append(spans, span{prev, a - 1})
			prev = a
		}
		spans = append(spans, span{prev, n})
	} else {
		size := c.Args.Int("span", 1)
		if size < 1 {
			return nil, tool.Invalid("span", "span must be at least 1", "")
		}
		for from := 1; from <= n; from += size {
			spans = append(spans, span{from, min(from+size-1, n)})
		}
	}
	if len(spans) < 2 {
		return nil, tool.Invalid("span", fmt.Sprintf("the file has %s: this split would produce a single file", wording.Count(n, "page", "pages")), "use a smaller span or split_at")
	}
	dir, err := p.outputDir(c, stem(in.abs)+"_split")
	if err != nil {
		return nil, err
	}
	name := func(s span) string {
		if s.from == s.thru {
			return fmt.Sprintf("%s_%d.pdf", stem(in.abs), s.from)
		}
		return fmt.Sprintf("%s_%d-%d.pdf", stem(in.abs), s.from, s.thru)
	}
	outs := make([]*tool.Outputs, len(spans))
	for i, s := range spans {
		if outs[i], err = p.placeIn(c, dir, name(s)); err != nil {
			return nil, err
		}
	}
	var files []tool.File
	var parts []map[string]any
	size := c.Args.Int("span", 1)
	if !c.Args.Has("split_at") {
		// SplitRaw parses the file once for all spans.
		ps, err := api.SplitRaw(in.reader(), size, in.conf())
		if err != nil && in.retry(err) {
			ps, err = api.SplitRaw(in.reader(), size, in.conf())
		}
		if err != nil {
			return nil, opErr("split", err)
		}
		if len(ps) != len(spans) {
			return nil, fmt.Errorf("split: pdfcpu returned %d parts, expected %d", len(ps), len(spans))
		}
		for i, s := range ps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			data, err := io.ReadAll(s.Reader)
			if err != nil {
				return nil, fmt.Errorf("split: part %d: %w", i+1, err)
			}
			f, err := outs[i].Write(".pdf", data)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			parts = append(parts, map[string]any{"output": rel(p.d.Sandbox, f.Path), "from": s.From, "thru": s.Thru})
			c.Progress(float64(i+1), float64(len(ps)), "")
		}
	} else {
		for i, s := range spans {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sel := []string{strconv.Itoa(s.from) + "-" + strconv.Itoa(s.thru)}
			collect := func(w io.Writer) error { return api.Collect(in.reader(), w, sel, in.conf()) }
			f, err := outs[i].WriteFrom(".pdf", collect)
			if err != nil && in.retry(err) {
				f, err = outs[i].WriteFrom(".pdf", collect)
			}
			if err != nil {
				return nil, opErr("split", err)
			}
			files = append(files, f)
			parts = append(parts, map[string]any{"output": rel(p.d.Sandbox, f.Path), "from": s.from, "thru": s.thru})
			c.Progress(float64(i+1), float64(len(spans)), "")
		}
	}
	return &tool.Result{
		Summary: fmt.Sprintf("split %s (%s) into %s in %s", rel(p.d.Sandbox, in.abs), wording.Count(n, "page", "pages"), wording.Count(len(files), "file", "files"), rel(p.d.Sandbox, dir)),
		Data:    in.note(map[string]any{"output_dir": rel(p.d.Sandbox, dir), "parts": parts}),
		Files:   files,
	}, nil
}

func (p *pdfTool) extractPages(_ context.Context, c *tool.Call) (*tool.Result, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	// Selection order, repeats kept: "3,1" puts page 3 first.
	pages, err := api.PagesForPageCollection(d.n, d.sel)
	if err != nil || len(pages) == 0 {
		return nil, tool.Invalid("pages", fmt.Sprintf("page selection %q does not match pages of this %d-page file", c.Args.String("pages"), d.n), `examples: "1-3,5", "even", "5-"`)
	}
	w, err := p.writePDF(c, d, "extract_pages", "_pages", func(w io.Writer) error { return api.Collect(d.reader(), w, d.sel, d.conf()) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("extracted %s of %s into %s", wording.Count(len(pages), "page", "pages"), rel(p.d.Sandbox, d.abs), w.rel),
		map[string]any{"pages": pages, "page_count": len(pages)}), nil
}

func (p *pdfTool) removePages(_ context.Context, c *tool.Call) (*tool.Result, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	if len(d.pages) >= d.n {
		return nil, tool.Invalid("pages", "the selection covers every page; a PDF needs at least one page", "select fewer pages")
	}
	w, err := p.writePDF(c, d, "remove_pages", "_removed", func(w io.Writer) error { return api.RemovePages(d.reader(), w, d.sel, d.conf()) })
	if err != nil {
		return nil, err
	}
	left := d.n - len(d.pages)
	return w.result(fmt.Sprintf("removed %s; %s has %s", wording.Count(len(d.pages), "page", "pages"), w.rel, wording.Count(left, "page", "pages")),
		map[string]any{"removed": d.pages, "page_count": left}), nil
}

func (p *pdfTool) rotate(_ context.Context, c *tool.Call) (*tool.Result, error) {
	rot := c.Args.Int("rotation", 0)
	switch rot {
	case 90, 180, 270, -90, -180, -270:
	default:
		return nil, tool.Invalid("rotation", fmt.Sprintf("rotation must be 90, 180 or 270 (or negative), got %d", rot), "")
	}
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	w, err := p.writePDF(c, d, "rotate", "_rotated", func(w io.Writer) error { return api.Rotate(d.reader(), w, rot, d.sel, d.conf()) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("rotated %s by %d° into %s", wording.Count(len(d.pages), "page", "pages"), rot, w.rel),
		map[string]any{"rotated": d.pages, "rotation": rot, "page_count": d.n}), nil
}

// optimize writes pdfcpu's optimized copy only when it is smaller: pdfcpu
// rewrites every object and, on files already compact (object streams,
// compressed xref), its result is often bigger. Then nothing is written and
// the answer says the original is kept.
func (p *pdfTool) optimize(_ context.Context, c *tool.Call) (*tool.Result, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = api.Optimize(d.reader(), &buf, d.conf())
	if err != nil && d.retry(err) {
		buf.Reset()
		err = api.Optimize(d.reader(), &buf, d.conf())
	}
	if err != nil {
		return nil, opErr("optimize", err)
	}
	before, after := len(d.data), buf.Len()
	if st, err := os.Stat(d.abs); err == nil {
		before = int(st.Size()) // d.data may carry a repair (fixEncryptLength)
	}
	if after >= before {
		return &tool.Result{
			Summary: fmt.Sprintf("%s is already compact: pdfcpu's rewrite would be %d bytes, not smaller than %d; kept the original, wrote nothing", rel(p.d.Sandbox, d.abs), after, before),
			Data:    map[string]any{"path": rel(p.d.Sandbox, d.abs), "kept_original": true, "before_bytes": before, "optimized_bytes": after, "saved_bytes": 0, "page_count": d.n},
		}, nil
	}
	w, err := p.writePDF(c, d, "optimize", "_optimized", func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("optimized %s: %d -> %s (%.0f%% smaller)", rel(p.d.Sandbox, d.abs), before, wording.Count(int64(after), "byte", "bytes"), 100*float64(before-after)/float64(before)),
		map[string]any{"kept_original": false, "before_bytes": before, "after_bytes": int64(after), "saved_bytes": int64(before - after), "page_count": d.n}), nil
}

func (p *pdfTool) validate(_ context.Context, c *tool.Call) (*tool.Result, error) {
	pw := c.Args.String("password")
	in, err := p.readInput("path", c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	cf := conf(pw)
	mode := "relaxed"
	if c.Args.Bool("strict", false) {
		cf.ValidationMode = model.ValidationStrict
		mode = "strict"
	}
	if !bytes.Contains(in.data[:min(len(in.data), 1024)], []byte("%PDF-")) {
		return &tool.Result{Summary: "not a PDF: no %PDF- header",
			Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "valid": false, "mode": mode, "error": "no %PDF- header"}}, nil
	}
	if err := api.Validate(in.reader(), cf); err != nil {
		if te, ok := pdfErr("path", c.Args.String("path"), pw, err).(*tool.Error); ok && te.Code == tool.CodeDenied {
			return nil, te
		}
		return &tool.Result{Summary: "the PDF is not valid: " + err.Error(),
			Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "valid": false, "mode": mode, "error": err.Error()}}, nil
	}
	n, _ := api.PageCount(in.reader(), conf(pw))
	return &tool.Result{Summary: fmt.Sprintf("%s is a valid PDF (%s validation, %s)", rel(p.d.Sandbox, in.abs), mode, wording.Count(n, "page", "pages")),
		Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "valid": true, "mode": mode, "page_count": n}}, nil
}
