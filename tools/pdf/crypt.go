package pdf

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"clawbridge/tools/tool"
)

// permBits maps our permission names to PDF user access bits (ISO 32000
// table 22).
var permBits = map[string]model.PermissionFlags{
	"print":      model.PermissionPrintRev2,
	"modify":     model.PermissionModify,
	"copy":       model.PermissionExtract | model.PermissionExtractRev3,
	"annotate":   model.PermissionModAnnFillForm,
	"fill_forms": model.PermissionFillRev3,
	"assemble":   model.PermissionAssembleRev3,
	"print_high": model.PermissionPrintRev3,
}

func permNames() []string {
	var out []string
	for k := range permBits {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parsePermissions reads "none", "print", "all" or a comma list of names.
func parsePermissions(field, s string) (model.PermissionFlags, []string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "print":
		return model.PermissionsPrint, []string{"print", "print_high"}, nil
	case "none":
		return model.PermissionsNone, nil, nil
	case "all":
		return model.PermissionsAll, permNames(), nil
	}
	flags := model.PermissionsNone
	var names []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if part == "print" {
			// Allowing print means full-quality print too, as readers expect.
			flags |= permBits["print"] | permBits["print_high"]
			names = append(names, "print", "print_high")
			continue
		}
		b, ok := permBits[part]
		if !ok {
			return 0, nil, tool.Invalid(field, fmt.Sprintf("unknown permission %q", part), "use none, print, all, or a comma list of: "+strings.Join(permNames(), ", "))
		}
		flags |= b
		names = append(names, part)
	}
	return flags, names, nil
}

// permissionNames lists what the P value of an encrypted file allows.
func permissionNames(p int, encrypted bool) map[string]bool {
	out := map[string]bool{}
	for name, b := range permBits {
		out[name] = !encrypted || p&int(b) == int(b)
	}
	return out
}

func (p *pdfTool) encrypt(_ context.Context, c *tool.Call) (*tool.Result, error) {
	owner := c.Args.String("owner_password")
	user := c.Args.String("user_password")
	if owner == "" {
		return nil, tool.Invalid("owner_password", "owner_password must not be empty", "give an owner password")
	}
	if owner == user {
		return nil, tool.Invalid("owner_password", "owner_password must differ from user_password, or the permissions cannot be enforced", "")
	}
	flags, names, err := parsePermissions("permissions", c.Args.String("permissions"))
	if err != nil {
		return nil, err
	}
	in, n, err := p.readPDF("path", c.Args.String("path"), "")
	if err != nil {
		// A password refusal means the file is encrypted; a path refusal
		// (outside the workspace) stays what it is.
		if te, ok := tool.AsError(err); ok && te.Code == tool.CodeDenied && te.Field == "password" {
			return nil, tool.Errorf(tool.CodeInvalid, "decrypt it first (action decrypt), then encrypt again", "%s is already encrypted", c.Args.String("path"))
		}
		return nil, err
	}
	out, err := p.output(c, stem(in.abs)+"_encrypted", ".pdf", in.abs)
	if err != nil {
		return nil, err
	}
	cf := conf("")
	cf.UserPW, cf.OwnerPW = user, owner
	cf.EncryptUsingAES, cf.EncryptKeyLength = true, 256
	cf.Permissions = flags
	f, err := out.WriteFrom(".pdf", func(w io.Writer) error { return api.Encrypt(in.reader(), w, cf) })
	if err != nil {
		return nil, opErr("encrypt", err)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("encrypted %s with AES-256 into %s", rel(p.d.Sandbox, in.abs), rel(p.d.Sandbox, out.Path(".pdf"))),
		Data: map[string]any{"output": rel(p.d.Sandbox, out.Path(".pdf")), "algorithm": "AES-256", "page_count": n,
			"needs_password_to_open": user != "", "permissions": names},
		Files: []tool.File{f},
	}, nil
}

func (p *pdfTool) decrypt(_ context.Context, c *tool.Call) (*tool.Result, error) {
	pw := c.Args.String("password")
	in, n, err := p.readPDF("path", c.Args.String("path"), pw)
	if err != nil {
		return nil, err
	}
	out, err := p.output(c, stem(in.abs)+"_decrypted", ".pdf", in.abs)
	if err != nil {
		return nil, err
	}
	f, err := out.WriteFrom(".pdf", func(w io.Writer) error { return api.Decrypt(in.reader(), w, conf(pw)) })
	if err != nil {
		return nil, opErr("decrypt", err)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("decrypted %s into %s", rel(p.d.Sandbox, in.abs), rel(p.d.Sandbox, out.Path(".pdf"))),
		Data:    map[string]any{"output": rel(p.d.Sandbox, out.Path(".pdf")), "page_count": n},
		Files:   []tool.File{f},
	}, nil
}

func (p *pdfTool) permissions(_ context.Context, c *tool.Call) (*tool.Result, error) {
	pw := c.Args.String("password")
	in, _, err := p.readPDF("path", c.Args.String("path"), pw)
	if err != nil {
		return nil, err
	}
	info, err := api.PDFInfo(in.reader(), "", nil, false, conf(pw))
	if err != nil {
		return nil, pdfErr("path", c.Args.String("path"), pw, err)
	}
	perms := permissionNames(info.Permissions, info.Encrypted)
	summary := "not encrypted: everything is allowed"
	if info.Encrypted {
		var allowed []string
		for _, k := range permNames() {
			if perms[k] {
				allowed = append(allowed, k)
			}
		}
		summary = "encrypted; allowed: " + strings.Join(allowed, ", ")
		if len(allowed) == 0 {
			summary = "encrypted; nothing allowed without the owner password"
		}
	}
	return &tool.Result{Summary: summary, Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "encrypted": info.Encrypted, "permissions": perms, "p_value": info.Permissions}}, nil
}

func (p *pdfTool) setPermissions(_ context.Context, c *tool.Call) (*tool.Result, error) {
	pw := c.Args.String("password")
	flags, names, err := parsePermissions("permissions", c.Args.String("permissions"))
	if err != nil {
		return nil, err
	}
	in, _, err := p.readPDF("path", c.Args.String("path"), pw)
	if err != nil {
		return nil, err
	}
	info, err := api.PDFInfo(in.reader(), "", nil, false, conf(pw))
	if err != nil {
		return nil, pdfErr("path", c.Args.String("path"), pw, err)
	}
	if !info.Encrypted {
		return nil, tool.Errorf(tool.CodeInvalid, "use action encrypt with a permissions value", "%s is not encrypted; permissions only apply to encrypted PDFs", c.Args.String("path"))
	}
	out, err := p.output(c, stem(in.abs)+"_permissions", ".pdf", in.abs)
	if err != nil {
		return nil, err
	}
	cf := conf(pw)
	cf.UserPW = c.Args.String("user_password")
	cf.Permissions = flags
	f, err := out.WriteFrom(".pdf", func(w io.Writer) error { return api.SetPermissions(in.reader(), w, cf) })
	if err != nil {
		return nil, opErr("set_permissions", err)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("set permissions of %s: %s", rel(p.d.Sandbox, out.Path(".pdf")), strings.Join(names, ", ")),
		Data:    map[string]any{"output": rel(p.d.Sandbox, out.Path(".pdf")), "permissions": names},
		Files:   []tool.File{f},
	}, nil
}
