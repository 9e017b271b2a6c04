package system

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type hostInfo struct {
	Hostname        string `json:"hostname"`
	OS              string `json:"os"`
	Platform        string `json:"platform,omitempty"`
	PlatformVersion string `json:"platform_version,omitempty"`
	KernelVersion   string `json:"kernel_version,omitempty"`
	Arch            string `json:"arch,omitempty"`
	Virtualization  string `json:"virtualization,omitempty"`
	BootTime        string `json:"boot_time,omitempty"`
	UptimeSeconds   uint64 `json:"uptime_seconds"`
	Uptime          string `json:"uptime"`
	Processes       uint64 `json:"processes"`
}

type cpuInfo struct {
	Model         string    `json:"model,omitempty"`
	PhysicalCores int       `json:"physical_cores,omitempty"`
	LogicalCores  int       `json:"logical_cores"`
	UsagePercent  float64   `json:"usage_percent"` // all cores, over a short sample
	LoadAverage   []float64 `json:"load_average,omitempty"`
}

type memInfo struct {
	TotalBytes     uint64  `json:"total_bytes"`
	AvailableBytes uint64  `json:"available_bytes"`
	UsedBytes      uint64  `json:"used_bytes"`
	UsedPercent    float64 `json:"used_percent"`
	SwapTotalBytes uint64  `json:"swap_total_bytes"`
	SwapUsedBytes  uint64  `json:"swap_used_bytes"`
}

type diskInfo struct {
	Mountpoint  string  `json:"mountpoint"`
	Device      string  `json:"device"`
	FSType      string  `json:"fs_type"`
	TotalBytes  uint64  `json:"total_bytes"`
	UsedBytes   uint64  `json:"used_bytes"`
	FreeBytes   uint64  `json:"free_bytes"`
	UsedPercent float64 `json:"used_percent"`
}

type goInfo struct {
	Version        string `json:"version"`
	OS             string `json:"os"`
	Arch           string `json:"arch"`
	NumCPU         int    `json:"num_cpu"`
	Goroutines     int    `json:"goroutines"`
	HeapAllocBytes uint64 `json:"heap_alloc_bytes"`
}

type infoData struct {
	Host   *hostInfo  `json:"host,omitempty"`
	CPU    *cpuInfo   `json:"cpu,omitempty"`
	Memory *memInfo   `json:"memory,omitempty"`
	Disks  []diskInfo `json:"disks"`
	Go     goInfo     `json:"go"`
	// Unavailable names the parts that could not be read, with the reason;
	// they are left out rather than guessed.
	Unavailable map[string]string `json:"unavailable,omitempty"`
}

// cpuSample is how long CPU usage is measured.
const cpuSample = 300 * time.Millisecond

func (s *sys) info(ctx context.Context, _ *tool.Call) (*tool.Result, error) {
	out := infoData{Unavailable: map[string]string{}}
	fail := func(part string, err error) { out.Unavailable[part] = err.Error() }

	if h, err := host.InfoWithContext(ctx); err != nil {
		fail("host", err)
	} else {
		hi := &hostInfo{
			Hostname: h.Hostname, OS: h.OS, Platform: h.Platform, PlatformVersion: h.PlatformVersion,
			KernelVersion: h.KernelVersion, Arch: h.KernelArch, UptimeSeconds: h.Uptime,
			Uptime: (time.Duration(h.Uptime) * time.Second).String(), Processes: h.Procs,
		}
		if h.VirtualizationSystem != "" {
			hi.Virtualization = strings.TrimSpace(h.VirtualizationSystem + " " + h.VirtualizationRole)
		}
		if h.BootTime > 0 {
			hi.BootTime = time.Unix(int64(h.BootTime), 0).UTC().Format(time.RFC3339)
		}
		out.Host = hi
	}

	ci := &cpuInfo{LogicalCores: runtime.NumCPU()}
	if infos, err := cpu.InfoWithContext(ctx); err == nil && len(infos) > 0 {
		ci.Model = strings.TrimSpace(infos[0].ModelName)
	}
	if n, err := cpu.CountsWithContext(ctx, true); err == nil && n > 0 {
		ci.LogicalCores = n
	}
	if n, err := cpu.CountsWithContext(ctx, false); err == nil {
		ci.PhysicalCores = n
	}
	if pct, err := cpu.PercentWithContext(ctx, cpuSample, false); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fail("cpu_usage", err)
	} else if len(pct) > 0 {
		ci.UsagePercent = round1(pct[0])
	}
	if l, err := load.AvgWithContext(ctx); err == nil {
		ci.LoadAverage = []float64{round2(l.Load1), round2(l.Load5), round2(l.Load15)}
	}
	out.CPU = ci

	if vm, err := mem.VirtualMemoryWithContext(ctx); err != nil {
		fail("memory", err)
	} else {
		mi := &memInfo{TotalBytes: vm.Total, AvailableBytes: vm.Available, UsedBytes: vm.Used, UsedPercent: round1(vm.UsedPercent)}
		if sw, err := mem.SwapMemoryWithContext(ctx); err == nil {
			mi.SwapTotalBytes, mi.SwapUsedBytes = sw.Total, sw.Used
		}
		out.Memory = mi
	}

	disks, err := s.disks(ctx)
	if err != nil {
		fail("disks", err)
	}
	out.Disks = disks

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out.Go = goInfo{Version: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, NumCPU: runtime.NumCPU(),
		Goroutines: runtime.NumGoroutine(), HeapAllocBytes: ms.HeapAlloc}

	if len(out.Unavailable) == 0 {
		out.Unavailable = nil
	}
	summary := "System information"
	if out.Host != nil && out.Memory != nil {
		summary = fmt.Sprintf("%s: %s %s, %d CPUs at %.0f%%, memory %s of %s used, up %s",
			out.Host.Hostname, out.Host.Platform, out.Host.PlatformVersion, ci.LogicalCores, ci.UsagePercent,
			wording.Bytes(out.Memory.UsedBytes), wording.Bytes(out.Memory.TotalBytes), out.Host.Uptime)
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}

// pseudoFS are file systems that hold no user data worth reporting.
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "devtmpfs": true, "devpts": true, "cgroup": true, "cgroup2": true,
	"securityfs": true, "pstore": true, "debugfs": true, "tracefs": true, "mqueue": true, "hugetlbfs": true,
	"configfs": true, "fusectl": true, "bpf": true, "autofs": true, "binfmt_misc": true, "rpc_pipefs": true,
	"nsfs": true, "squashfs": true, "efivarfs": true, "ramfs": true, "selinuxfs": true, "overlay_tmp": true,
}

// disks lists mounted file systems with usage. All mounts are read (a
// container's root is an overlay, which the "physical only" filter drops)
// and pseudo file systems, empty ones and bind mounts of a device already
// listed are skipped.
func (s *sys) disks(ctx context.Context) ([]diskInfo, error) {
	parts, err := disk.PartitionsWithContext(ctx, true)
	if err != nil && len(parts) == 0 {
		return []diskInfo{}, err
	}
	out := []diskInfo{}
	seen := map[string]bool{}
	for _, p := range parts {
		if pseudoFS[p.Fstype] || (p.Fstype == "tmpfs" && p.Mountpoint != "/tmp") {
			continue
		}
		u, err := disk.UsageWithContext(ctx, p.Mountpoint)
		if err != nil || u.Total == 0 {
			continue
		}
		key := fmt.Sprintf("%s|%d", p.Device, u.Total)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, diskInfo{Mountpoint: p.Mountpoint, Device: p.Device, FSType: p.Fstype,
			TotalBytes: u.Total, UsedBytes: u.Used, FreeBytes: u.Free, UsedPercent: round1(u.UsedPercent)})
	}
	slices.SortFunc(out, func(a, b diskInfo) int { return strings.Compare(a.Mountpoint, b.Mountpoint) })
	return out, nil
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }
