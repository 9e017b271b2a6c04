package zone

import (
	"strings"
	"testing"
)

func TestZone_SystemHasAnIANAName(t *testing.T) {
	t.Setenv("TZ", "America/Sao_Paulo")
	if got := System().String(); got != "America/Sao_Paulo" {
		t.Fatalf("with TZ set: %s", got)
	}
	t.Setenv("TZ", "")
	loc, err := Load("tools.x.timezone", "")
	if err != nil || loc.String() == "" {
		t.Fatalf("system zone %v, %v", loc, err)
	}
	if _, err := Load("tools.x.timezone", "Mars/Olympus"); err == nil || !strings.Contains(err.Error(), `tools.x.timezone: unknown IANA time zone "Mars/Olympus"`) {
		t.Fatalf("bad zone: %v", err)
	}
}
