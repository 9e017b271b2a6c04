package codeassist

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"text/template"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// The skeletons live in templates/<language>/<kind>/, one file per output
// file with a .tmpl suffix (so the Go ones are not part of this module's
// build). Each uses only its language's standard library, so it builds and
// runs with nothing installed; the tests build and run every one.
//
//go:embed templates
var templateFS embed.FS

var (
	templateLanguages = []string{"go", "python", "javascript"}
	templateKinds     = []string{"cli", "http_api", "test"}
	nameRE            = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
)

// runHints say how to build and run each kind, per language.
var runHints = map[string]map[string][]string{
	"go": {
		"cli":      {"go build -o NAME .", "./NAME -w main.go"},
		"http_api": {"go test ./...", "go run . -addr 127.0.0.1:8080", "curl http://127.0.0.1:8080/health"},
		"test":     {"go test ./..."},
	},
	"python": {
		"cli":      {"python3 cli.py cli.py"},
		"http_api": {"python3 server.py --port 8080", "curl http://127.0.0.1:8080/health"},
		"test":     {"python3 -m unittest -v"},
	},
	"javascript": {
		"cli":      {"node cli.js cli.js"},
		"http_api": {"node server.js --port 8080", "curl http://127.0.0.1:8080/health"},
		"test":     {"node --test"},
	},
}

type templateFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (a *assistant) template(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	lang, kind := c.Args.String("language"), c.Args.String("kind")
	name := c.Args.StringOr("name", "app")
	if !nameRE.MatchString(name) {
		return nil, tool.Invalid("name", fmt.Sprintf("name %q must start with a letter and hold only letters, digits, - and _ (at most 64)", name), "e.g. name: inventory-api")
	}
	files, err := renderTemplate(lang, kind, name)
	if err != nil {
		return nil, err
	}
	run := make([]string, 0, len(runHints[lang][kind]))
	for _, r := range runHints[lang][kind] {
		run = append(run, strings.ReplaceAll(r, "NAME", name))
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s %s skeleton %q: %s", lang, kind, name, strings.Join(paths, ", ")),
		Data: map[string]any{
			"language": lang, "kind": kind, "name": name, "files": files, "run": run,
			"note": "nothing was written; save the files with the file tool (write), into a new directory",
		},
	}, nil
}

// renderTemplate fills the skeleton of one language and kind.
func renderTemplate(lang, kind, name string) ([]templateFile, error) {
	dir := path.Join("templates", lang, kind)
	entries, err := fs.ReadDir(templateFS, dir)
	if err != nil || len(entries) == 0 {
		return nil, tool.Invalid("kind", fmt.Sprintf("no %s skeleton for %s", kind, lang), "kinds: "+strings.Join(templateKinds, ", ")+"; languages: "+strings.Join(templateLanguages, ", "))
	}
	vars := map[string]string{"Name": name, "Package": goPackageName(name)}
	var out []templateFile
	for _, e := range entries {
		raw, err := fs.ReadFile(templateFS, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("coding_assistant: template %s: %w", e.Name(), err)
		}
		t, err := template.New(e.Name()).Delims("{%", "%}").Option("missingkey=error").Parse(string(raw))
		if err != nil {
			return nil, fmt.Errorf("coding_assistant: template %s: %w", e.Name(), err)
		}
		var b bytes.Buffer
		if err := t.Execute(&b, vars); err != nil {
			return nil, fmt.Errorf("coding_assistant: template %s: %w", e.Name(), err)
		}
		out = append(out, templateFile{Path: strings.TrimSuffix(e.Name(), ".tmpl"), Content: b.String()})
	}
	return out, nil
}

// goPackageName turns a project name into a Go package name: lower case
// letters and digits only.
func goPackageName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "app"
	}
	return b.String()
}
