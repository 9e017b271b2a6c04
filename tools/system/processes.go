package system

import (
	"context"
	"fmt"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type procInfo struct {
	PID           int32   `json:"pid"`
	Name          string  `json:"name"`
	User          string  `json:"user,omitempty"`
	CPUPercent    float64 `json:"cpu_percent"` // of one core, over the sample
	RSSBytes      uint64  `json:"rss_bytes"`
	MemoryPercent float64 `json:"memory_percent"`
	Command       string  `json:"command,omitempty"` // secrets redacted, cut at 300 chars
}

type procData struct {
	SortBy         string     `json:"sort_by"`
	SampleMS       int64      `json:"sample_ms"`
	TotalProcesses int        `json:"total_processes"`
	Processes      []procInfo `json:"processes"`
}

// procSample is the window over which CPU use is measured: a process's
// lifetime average would hide what is busy now.
const procSample = 500 * time.Millisecond

type procSnap struct {
	p   *process.Process
	cpu float64 // seconds of CPU time
	rss uint64
}

func (s *sys) processes(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	args := c.Args
	sortBy := args.StringOr("sort_by", "cpu")
	limit := min(args.Int("limit", 15), 500)
	if limit < 1 {
		limit = 15
	}

	snaps, cpuPct, elapsed, err := sampleProcesses(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(snaps, func(a, b procSnap) int {
		if sortBy == "memory" {
			if a.rss != b.rss {
				if a.rss > b.rss {
					return -1
				}
				return 1
			}
		} else if ca, cb := cpuPct[a.p.Pid], cpuPct[b.p.Pid]; ca != cb {
			if ca > cb {
				return -1
			}
			return 1
		}
		return int(a.p.Pid - b.p.Pid)
	})

	var total uint64
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		total = vm.Total
	}
	users := map[uint32]string{}
	out := procData{SortBy: sortBy, SampleMS: int64(elapsed * 1000), TotalProcesses: len(snaps), Processes: []procInfo{}}
	for _, sn := range snaps[:min(limit, len(snaps))] {
		p := sn.p
		pi := procInfo{PID: p.Pid, CPUPercent: round1(cpuPct[p.Pid]), RSSBytes: sn.rss}
		pi.Name, _ = p.NameWithContext(ctx)
		if total > 0 {
			pi.MemoryPercent = round2(float64(sn.rss) / float64(total) * 100)
		}
		if uids, err := p.UidsWithContext(ctx); err == nil && len(uids) > 0 {
			pi.User = userName(users, uids[0])
		}
		if argv, err := p.CmdlineSliceWithContext(ctx); err == nil {
			pi.Command = redactCommand(argv, 300)
		}
		out.Processes = append(out.Processes, pi)
	}
	summary := fmt.Sprintf("Top %d of %s by %s", len(out.Processes), wording.Count(out.TotalProcesses, "process", "processes"), sortBy)
	if len(out.Processes) > 0 {
		top := out.Processes[0]
		summary += fmt.Sprintf("; first: %s (pid %d, %.1f%% CPU, %s)", top.Name, top.PID, top.CPUPercent, wording.Bytes(top.RSSBytes))
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}

// sampleProcesses measures each readable process's CPU time over
// procSample: it returns the processes still there with their memory, the
// CPU percent of each and the seconds measured.
func sampleProcesses(ctx context.Context) ([]procSnap, map[int32]float64, float64, error) {
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return nil, nil, 0, tool.Errorf(tool.CodeUnavailable, "the process table (/proc) is not readable here", "processes: list pids: %v", err)
	}
	first := map[int32]procSnap{}
	for _, pid := range pids {
		p := &process.Process{Pid: pid}
		t, err := p.TimesWithContext(ctx)
		if err != nil {
			continue // gone, or not ours to read
		}
		first[pid] = procSnap{p: p, cpu: t.User + t.System}
	}
	start := time.Now()
	select {
	case <-ctx.Done():
		return nil, nil, 0, ctx.Err()
	case <-time.After(procSample):
	}
	elapsed := time.Since(start).Seconds()
	var snaps []procSnap
	cpuPct := map[int32]float64{}
	for pid, a := range first {
		t, err := a.p.TimesWithContext(ctx)
		if err != nil {
			continue // exited during the sample
		}
		mi, err := a.p.MemoryInfoWithContext(ctx)
		if err != nil {
			continue
		}
		cpuPct[pid] = max(0, (t.User+t.System-a.cpu)/elapsed*100)
		snaps = append(snaps, procSnap{p: a.p, rss: mi.RSS})
	}
	return snaps, cpuPct, elapsed, nil
}

func userName(cache map[uint32]string, uid uint32) string {
	if n, ok := cache[uid]; ok {
		return n
	}
	n := strconv.Itoa(int(uid))
	if u, err := user.LookupId(n); err == nil {
		n = u.Username
	}
	cache[uid] = n
	return n
}

// redactCommand joins a command line with secrets masked: the value of a
// secret-named option (--password=x, --token x, API_KEY=x, mysql -px),
// secret-named pairs inside an argument (?access_token=x, a;password=x),
// header-style arguments (Authorization: x, X-Api-Key: x), and credentials
// that logging.RedactString finds anywhere (URLs with passwords, bearer
// tokens, known key formats).
func redactCommand(argv []string, maxLen int) string {
	parts := make([]string, 0, len(argv))
	maskNext := false
	mysqlLike := len(argv) > 0 && mysqlClients[filepath.Base(argv[0])]
	for i, a := range argv {
		if maskNext && !strings.HasPrefix(a, "-") {
			parts = append(parts, "***")
			maskNext = false
			continue
		}
		maskNext = false
		switch {
		case i > 0 && mysqlLike && strings.HasPrefix(a, "-p") && len(a) > 2:
			// mysql -psecret: the password glued to the option.
			parts = append(parts, "-p***")
			continue
		case headerArg.MatchString(a):
			if name, _, _ := strings.Cut(a, ":"); secretName(strings.TrimSpace(name)) {
				parts = append(parts, name+": ***")
				continue
			}
		case strings.Contains(a, "=") && !strings.Contains(a, "://"):
			k, _, _ := strings.Cut(a, "=")
			if secretName(k) {
				parts = append(parts, k+"=***")
				continue
			}
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName(a):
			maskNext = true
		}
		parts = append(parts, logging.RedactString(maskPairs(a)))
	}
	s := strings.Join(parts, " ")
	if len(s) > maxLen {
		s = strings.ToValidUTF8(s[:maxLen], "") + "…"
	}
	return s
}

// mysqlClients take the password glued to -p.
var mysqlClients = map[string]bool{"mysql": true, "mysqldump": true, "mysqladmin": true, "mariadb": true, "mariadb-dump": true, "mysqlimport": true, "mysqlshow": true}

// headerArg is an HTTP-header-shaped argument, "Name: value".
var headerArg = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*\s*:\s*\S`)

// pairInArg is a key=value pair inside a longer argument: a URL query,
// a DSN, a comma- or semicolon-separated option list.
var pairInArg = regexp.MustCompile(`([A-Za-z0-9_.-]+)=([^&;,?=\s]*)`)

// maskPairs masks the values of secret-named pairs inside an argument.
func maskPairs(a string) string {
	return pairInArg.ReplaceAllStringFunc(a, func(m string) string {
		k, _, _ := strings.Cut(m, "=")
		if secretName(k) {
			return k + "=***"
		}
		return m
	})
}

// secretName is logging.SecretName for option names too: --api-key is
// spelled with a hyphen where the variable would be API_KEY.
func secretName(name string) bool {
	return logging.SecretName(strings.ReplaceAll(name, "-", "_"))
}
