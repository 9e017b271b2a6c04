package email

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// parseRecipients checks each entry of field ("Name <a@b.org>" or
// "a@b.org") for RFC 5322 syntax, a domain with a dot, and the allow-list.
func parseRecipients(field string, list []string, allow []string) ([]*mail.Address, error) {
	out := make([]*mail.Address, 0, len(list))
	for _, s := range list {
		a, err := mail.ParseAddress(strings.TrimSpace(s))
		if err != nil {
			return nil, tool.Invalid(field, fmt.Sprintf("%q is not an email address: %v", s, err), `write each recipient as "name@example.org" or "Name <name@example.org>"`)
		}
		_, domain, _ := strings.Cut(a.Address, "@")
		if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
			return nil, tool.Invalid(field, fmt.Sprintf("%q has no valid domain", s), "give a full address such as name@example.org")
		}
		if !allowed(a.Address, allow) {
			return nil, tool.Errorf(tool.CodeDenied, "send only to addresses or domains in tools.email.allow_recipients, or ask the operator to add this one",
				"%s is not in the allowed recipients", a.Address)
		}
		out = append(out, a)
	}
	return out, nil
}

// allowed reports whether addr passes the allow-list: empty allows all; an
// entry with @ is one address, one without is a domain and its subdomains.
func allowed(addr string, allow []string) bool {
	if len(allow) == 0 {
		return true
	}
	addr = strings.ToLower(addr)
	_, domain, _ := strings.Cut(addr, "@")
	for _, a := range allow {
		a = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(a), "@"))
		if strings.Contains(a, "@") {
			if addr == a {
				return true
			}
			continue
		}
		if domain == a || strings.HasSuffix(domain, "."+a) {
			return true
		}
	}
	return false
}
