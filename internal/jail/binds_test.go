package jail

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanBinds(t *testing.T) {
	binds, hide, err := planBinds([]Bind{{Source: "/ws/a", Target: "/ws/a"}, {Source: "/ws", Target: "/ws"}}, []string{"/ws/data"})
	if err != nil || binds[0].Target != "/ws" || len(hide) != 1 || hide[0] != "/ws/data" {
		t.Fatalf("%v %v %v", binds, hide, err)
	}
	_, hide, _ = planBinds([]Bind{{Source: "/home/u", Target: "/work"}}, []string{"/home/u/.local/share/clawbridge"})
	if len(hide) != 1 || hide[0] != "/work/.local/share/clawbridge" {
		t.Fatalf("hide = %v", hide)
	}
}

// FuzzBinds checks the invariants of a validated bind list: every path is
// absolute and clean, nothing binds /, /proc, /sys or /dev or lands in the
// system view, nothing protected is bound, and every protected path under
// a bind is hidden.
func FuzzBinds(f *testing.F) {
	f.Add("/ws", "/ws", "/ws/data", false)
	f.Add("/", "/x", "/data", true)
	f.Add("/proc/1", "/p", "", false)
	f.Add("/ws/../etc", "/e", "/ws", false)
	f.Add("/data/x", "/tmp/x", "/data", true)
	f.Add("/a", "/usr/lib", "/b", true)
	f.Fuzz(func(t *testing.T, src, dst, prot string, w bool) {
		var protected []string
		if prot != "" {
			protected = []string{prot}
		}
		binds, hide, err := planBinds([]Bind{{Source: src, Target: dst, Writable: w}, {Source: "/srv/in", Target: "/in"}}, protected)
		if err != nil {
			return
		}
		for _, b := range binds {
			for _, p := range []string{b.Source, b.Target} {
				if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" || strings.ContainsRune(p, 0) {
					t.Fatalf("accepted path %q", p)
				}
			}
			for _, f := range forbiddenSources {
				if within(b.Source, f) {
					t.Fatalf("accepted source %q", b.Source)
				}
			}
			for _, s := range systemTargets {
				if within(b.Target, s) {
					t.Fatalf("accepted target %q", b.Target)
				}
			}
			if b.Writable && b.Source == "/srv/in" {
				t.Fatal("a read-only bind became writable")
			}
			for _, p := range protected {
				if within(b.Source, p) {
					t.Fatalf("bound protected %q via %q", p, b.Source)
				}
				if within(p, b.Source) {
					want := b.Target + strings.TrimPrefix(p, b.Source)
					found := false
					for _, h := range hide {
						found = found || h == want
					}
					if !found {
						t.Fatalf("protected %q under %q not hidden (%v)", p, b.Source, hide)
					}
				}
			}
		}
	})
}

func TestSetDefaults(t *testing.T) {
	t.Cleanup(func() { SetDefaults(BuiltinLimits) })
	SetDefaults(Limits{CPUSeconds: 7})
	got := Limits{}.withDefaults()
	if got.CPUSeconds != 7 || got.MemoryMB != BuiltinLimits.MemoryMB || got.Processes != BuiltinLimits.Processes {
		t.Fatalf("defaults = %+v", got)
	}
	if l := (Limits{Processes: -1}).withDefaults(); l.Processes != -1 || strings.Contains(strings.Join(l.prlimitArgs(), " "), "nproc") {
		t.Fatalf("a negative limit must lift it: %+v %v", l, l.prlimitArgs())
	}
}
