package codeassist

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Limits of one directory analysis.
const (
	maxFiles      = 5000
	maxTotalBytes = 64 << 20
)

// goFunc is one Go function or method with its measures from the AST.
type goFunc struct {
	Name       string `json:"name"` // "Name", "T.Name" or "(*T).Name"
	File       string `json:"file,omitempty"`
	Line       int    `json:"line"`
	Complexity int    `json:"complexity"` // cyclomatic, counted as gocyclo does
	Lines      int    `json:"lines"`      // from the func keyword to the closing brace
	Params     int    `json:"params"`
	Results    int    `json:"results"`
	pos        token.Position
}

// goFuncs lists the functions of one parsed file: every declaration, and
// every function literal bound by a top-level var (as gocyclo counts them).
// A literal inside a function adds to that function's complexity.
func goFuncs(fset *token.FileSet, f *ast.File) []goFunc {
	var out []goFunc
	add := func(name string, node ast.Node, typ *ast.FuncType) {
		start, end := fset.Position(node.Pos()), fset.Position(node.End())
		out = append(out, goFunc{Name: name, Line: start.Line, Complexity: complexity(node),
			Lines: end.Line - start.Line + 1, Params: fieldCount(typ.Params), Results: fieldCount(typ.Results), pos: start})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(funcDeclName(d), d, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.FuncLit); ok {
						name := vs.Names[0].Name
						if i < len(vs.Names) {
							name = vs.Names[i].Name
						}
						add(name, lit, lit.Type)
					}
				}
			}
		}
	}
	return out
}

// complexity is McCabe's cyclomatic complexity of a function: one, plus one
// for each if, for, range, non-default case of a switch or select, and each
// && and ||.
func complexity(fn ast.Node) int {
	n := 1
	ast.Inspect(fn, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// fieldCount counts parameters or results: each name, or one per unnamed type.
func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		n += max(1, len(f.Names))
	}
	return n
}

func funcDeclName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	return recvName(d.Recv.List[0].Type) + "." + d.Name.Name
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "(*" + recvName(t.X) + ")"
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr: // T[K]
		return recvName(t.X)
	case *ast.IndexListExpr: // T[K, V]
		return recvName(t.X)
	case *ast.ParenExpr:
		return recvName(t.X)
	}
	return "?"
}

// goPackage totals one Go package (a directory and package name).
type goPackage struct {
	Dir             string  `json:"dir,omitempty"`
	Name            string  `json:"name"`
	Files           int     `json:"files"`
	Functions       int     `json:"functions"`
	ComplexityTotal int     `json:"complexity_total"`
	ComplexityMax   int     `json:"complexity_max"`
	ComplexityAvg   float64 `json:"complexity_avg"`
}

// fileReport is one analysed file outside Go.
type fileReport struct {
	File     string `json:"file,omitempty"`
	Language string `json:"language"`
	lineCounts
	Functions []funcRef `json:"functions"`
}

type funcRef struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

// analysis gathers the results of one analyze call.
type analysis struct {
	languages map[string]*langTotal
	packages  map[string]*goPackage
	goFuncs   []goFunc
	others    []fileReport
	errors    []string
	files     int
	bytes     int64
	truncated bool
}

type langTotal struct {
	Files int `json:"files"`
	lineCounts
	Functions int `json:"functions"`
}

func (a *assistant) analyze(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	lang := c.Args.String("language")
	an := &analysis{languages: map[string]*langTotal{}, packages: map[string]*goPackage{}}
	if _, err := c.Args.ExactlyOne("text is the code (then say language), path a workspace file or directory", "text", "path"); err != nil {
		return nil, err
	}
	if c.Args.Has("text") {
		if lang == "" {
			return nil, tool.Invalid("language", "language is required with text", "one of: "+strings.Join(analyzeLanguages(), ", "))
		}
		src, err := a.readSource(c, "")
		if err != nil {
			return nil, err
		}
		if err := an.file("", "", lang, src.text); err != nil {
			return nil, tool.Invalid("text", err.Error(), "send code that compiles, or check language")
		}
	} else {
		p := c.Args.String("path")
		abs, err := a.d.Sandbox.Resolve(p)
		if err != nil {
			return nil, tool.PathError("path", p, err)
		}
		st, err := tool.StatInput("path", p, abs)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if lang == "" {
				if lang = languageOf(abs); languages[lang] == nil {
					return nil, tool.Invalid("language", fmt.Sprintf("cannot tell the language of %s files", extOrName(p)), "give language, one of: "+strings.Join(analyzeLanguages(), ", "))
				}
			}
			_, data, err := a.readFile("path", p)
			if err != nil {
				return nil, err
			}
			if err := an.file(filepath.Base(abs), filepath.Dir(abs), lang, string(data)); err != nil {
				return nil, tool.Invalid("path", err.Error(), "fix the syntax error first, or check language")
			}
		} else if err := an.dir(ctx, a, abs, lang); err != nil {
			return nil, err
		}
		if an.files == 0 {
			return nil, tool.Invalid("path", "no source files of a known language under "+p, "languages: "+strings.Join(analyzeLanguages(), ", "))
		}
	}
	return an.result(c.Args.Int("limit", 50)), nil
}

// dir walks a directory, skipping hidden, vendor and node_modules
// directories, and analyses every file of a known language (or of lang).
func (an *analysis) dir(ctx context.Context, a *assistant, root, lang string) error {
	return a.d.Sandbox.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is left out
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		name := e.Name()
		if e.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		l := languageOf(name)
		if languages[l] == nil || (lang != "" && l != lang) || !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil || info.Size() > maxInput {
			return nil
		}
		if an.files >= maxFiles || an.bytes+info.Size() > maxTotalBytes {
			an.truncated = true
			return filepath.SkipAll
		}
		// Stay inside the workspace: a symlinked file is skipped by the
		// regular-file check above, and WalkDir does not follow directory
		// links; the read itself follows no link put in since.
		data, err := sandbox.ReadRegular(p, maxInput)
		if err != nil || !isText(data) {
			return nil
		}
		an.bytes += int64(len(data))
		rel, _ := filepath.Rel(root, p)
		if err := an.file(rel, filepath.Dir(rel), l, string(data)); err != nil {
			an.errors = append(an.errors, err.Error())
		}
		return nil
	})
}

// file analyses one file's text; name is its path for the report.
func (an *analysis) file(name, dir, lang, text string) error {
	spec := languages[lang]
	if spec == nil {
		return fmt.Errorf("unknown language %q", lang)
	}
	counts, found := countLines(spec, text)
	var funcs int
	if lang == "go" {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, text, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("go: %v", err)
		}
		list := goFuncs(fset, f)
		key := dir + "\x00" + f.Name.Name
		pkg := an.packages[key]
		if pkg == nil {
			pkg = &goPackage{Dir: dir, Name: f.Name.Name}
			an.packages[key] = pkg
		}
		pkg.Files++
		for _, fn := range list {
			fn.File = name
			pkg.Functions++
			pkg.ComplexityTotal += fn.Complexity
			pkg.ComplexityMax = max(pkg.ComplexityMax, fn.Complexity)
			an.goFuncs = append(an.goFuncs, fn)
		}
		funcs = len(list)
	} else {
		r := fileReport{File: name, Language: lang, lineCounts: counts, Functions: []funcRef{}}
		for _, f := range found {
			r.Functions = append(r.Functions, funcRef(f))
		}
		an.others = append(an.others, r)
		funcs = len(found)
	}
	an.files++
	t := an.languages[lang]
	if t == nil {
		t = &langTotal{}
		an.languages[lang] = t
	}
	t.Files++
	t.add(counts)
	t.Functions += funcs
	return nil
}

func (an *analysis) result(limit int) *tool.Result {
	data := map[string]any{"files": an.files, "languages": an.languages}
	var parts []string
	for _, l := range analyzeLanguages() {
		if t := an.languages[l]; t != nil {
			parts = append(parts, fmt.Sprintf("%s: %s, %s, %s", l, wording.Count(t.Files, "file", "files"), wording.Count(t.Lines, "line", "lines"), wording.Count(t.Functions, "function", "functions")))
		}
	}
	if len(an.packages) > 0 {
		pkgs := make([]*goPackage, 0, len(an.packages))
		for _, p := range an.packages {
			if p.Functions > 0 {
				p.ComplexityAvg = float64(int(float64(p.ComplexityTotal)/float64(p.Functions)*100+0.5)) / 100
			}
			pkgs = append(pkgs, p)
		}
		sort.Slice(pkgs, func(i, j int) bool {
			if pkgs[i].Dir != pkgs[j].Dir {
				return pkgs[i].Dir < pkgs[j].Dir
			}
			return pkgs[i].Name < pkgs[j].Name
		})
		sort.SliceStable(an.goFuncs, func(i, j int) bool { return an.goFuncs[i].Complexity > an.goFuncs[j].Complexity })
		fns := an.goFuncs
		if len(fns) > limit {
			fns = fns[:limit]
		}
		data["go_packages"] = pkgs
		data["go_functions"] = fns
		data["go_functions_total"] = len(an.goFuncs)
		data["complexity"] = "cyclomatic (McCabe), counted as gocyclo does: 1 + if, for, range, case, select case, && and ||"
	}
	if len(an.others) > 0 {
		// Files are listed whole up to limit functions, so a big tree stays readable.
		var files []fileReport
		listed := 0
		for _, r := range an.others {
			if listed >= limit {
				break
			}
			if n := limit - listed; len(r.Functions) > n {
				r.Functions = r.Functions[:n]
			}
			listed += len(r.Functions)
			files = append(files, r)
		}
		data["files_detail"] = files
		data["functions_found_by"] = "line patterns (no parser) outside Go"
	}
	if len(an.errors) > 0 {
		data["errors"] = an.errors
	}
	if an.truncated {
		data["truncated"] = fmt.Sprintf("stopped at %d files or %d MB; analyse a subdirectory", maxFiles, maxTotalBytes>>20)
	}
	summary := "analysed " + strings.Join(parts, "; ")
	if len(an.goFuncs) > 0 {
		top := an.goFuncs[0]
		summary += fmt.Sprintf("; most complex Go function %s (%d)", top.Name, top.Complexity)
	}
	return &tool.Result{Summary: summary, Data: data}
}
