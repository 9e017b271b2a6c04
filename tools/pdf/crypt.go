package pdf

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/clawbridge/clawbridge/tools/tool"
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

func permNames() []string { return slices.Sorted(maps.Keys(permBits)) }

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
	d, err := p.open(c) // encrypt has no password parameter: an encrypted input is refused
	if err != nil {
		// A password refusal means the file is encrypted; a path refusal
		// (outside the workspace) stays what it is.
		if te, ok := tool.AsError(err); ok && te.Code == tool.CodeDenied && te.Field == "password" {
			return nil, tool.Invalidf("path", "decrypt it first (action decrypt), then encrypt again", "%s is already encrypted", c.Args.String("path"))
		}
		return nil, err
	}
	cf := conf("")
	cf.UserPW, cf.OwnerPW = user, owner
	cf.EncryptUsingAES, cf.EncryptKeyLength = true, 256
	cf.Permissions = flags
	w, err := p.writePDF(c, d, "encrypt", "_encrypted", func(w io.Writer) error { return api.Encrypt(d.reader(), w, cf) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("encrypted %s with AES-256 into %s", rel(p.d.Sandbox, d.abs), w.rel),
		map[string]any{"algorithm": "AES-256", "page_count": d.n, "needs_password_to_open": user != "", "permissions": names}), nil
}

func (p *pdfTool) decrypt(_ context.Context, c *tool.Call) (*tool.Result, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}
	w, err := p.writePDF(c, d, "decrypt", "_decrypted", func(w io.Writer) error { return api.Decrypt(d.reader(), w, d.conf()) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("decrypted %s into %s", rel(p.d.Sandbox, d.abs), w.rel), map[string]any{"page_count": d.n}), nil
}

// openInfo opens the call's PDF (open) and reads its information: whether
// it is encrypted, and what it permits.
func (p *pdfTool) openInfo(c *tool.Call) (*doc, *pdfcpu.PDFInfo, error) {
	d, err := p.open(c)
	if err != nil {
		return nil, nil, err
	}
	info, err := api.PDFInfo(d.reader(), "", nil, false, d.conf())
	if err != nil {
		return nil, nil, pdfErr("path", d.path, d.pw, err)
	}
	return d, info, nil
}

func (p *pdfTool) permissions(_ context.Context, c *tool.Call) (*tool.Result, error) {
	in, info, err := p.openInfo(c)
	if err != nil {
		return nil, err
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
	flags, names, err := parsePermissions("permissions", c.Args.String("permissions"))
	if err != nil {
		return nil, err
	}
	d, info, err := p.openInfo(c)
	if err != nil {
		return nil, err
	}
	if !info.Encrypted {
		return nil, tool.Invalidf("path", "use action encrypt with a permissions value", "%s is not encrypted; permissions only apply to encrypted PDFs", d.path)
	}
	cf := d.conf()
	cf.UserPW = c.Args.String("user_password")
	cf.Permissions = flags
	w, err := p.writePDF(c, d, "set_permissions", "_permissions", func(w io.Writer) error { return api.SetPermissions(d.reader(), w, cf) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("set permissions of %s: %s", w.rel, strings.Join(names, ", ")), map[string]any{"permissions": names}), nil
}
