package toolerr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// argumentCodes are the codes about an argument: an error with one of them
// names the field at fault (issue 29).
var argumentCodes = map[string]bool{"CodeInvalid": true, "CodeNotFound": true, "CodeExists": true}

// fieldFirst are the constructors whose first argument is the field.
var fieldFirst = map[string]bool{"Invalid": true, "Invalidf": true, "NotFoundf": true, "Existsf": true}

// TestArgumentErrorsNameAField reads every non-test Go file of the module:
// no code builds invalid_argument, not_found or already_exists without a
// field. That is an Errorf-shaped call (the code as first argument), an
// Error literal with such a Code and no Field, an assignment of such a Code
// that does not set Field too, or a field-taking constructor given "".
func TestArgumentErrorsNameAField(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, bad := range fieldlessErrors(f) {
			t.Errorf("%s: %s", fset.Position(bad.Pos()), describe(bad))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Fatalf("read %d files; expected the whole module", files)
	}
}

// fieldlessErrors are the nodes of f that build an argument error without a field.
func fieldlessErrors(f *ast.File) []ast.Node {
	var bad []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if len(n.Args) > 0 && argumentCode(n.Args[0]) != "" {
				bad = append(bad, n)
			}
			if fieldFirst[name(n.Fun)] && len(n.Args) > 0 && isEmptyString(n.Args[0]) {
				bad = append(bad, n)
			}
		case *ast.CompositeLit:
			if name(n.Type) != "Error" {
				return true
			}
			code, field := false, false
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					switch name(kv.Key) {
					case "Code":
						code = argumentCode(kv.Value) != ""
					case "Field":
						field = !isEmptyString(kv.Value)
					}
				}
			}
			if code && !field {
				bad = append(bad, n)
			}
		case *ast.AssignStmt:
			code, field := false, false
			for i, l := range n.Lhs {
				switch name(l) {
				case "Code":
					code = i < len(n.Rhs) && argumentCode(n.Rhs[i]) != ""
				case "Field":
					field = true
				}
			}
			if code && !field {
				bad = append(bad, n)
			}
		}
		return true
	})
	return bad
}

func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.CallExpr:
		return "an argument error without a field: use Invalidf, NotFoundf or Existsf with the parameter at fault"
	case *ast.CompositeLit:
		return "an Error literal with an argument code and no Field"
	default:
		return "an argument code set without setting Field"
	}
}

// argumentCode is the name of the argument code e refers to, or "".
func argumentCode(e ast.Expr) string {
	if n := name(e); argumentCodes[n] {
		return n
	}
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		switch s, _ := strconv.Unquote(lit.Value); s {
		case CodeInvalid, CodeNotFound, CodeExists:
			return s
		}
	}
	return ""
}

// name is the last name of an identifier or selector (Error for
// toolerr.Error, Code for e.Code), or "".
func name(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

func isEmptyString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``")
}
