package system

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"syscall"

	gnet "github.com/shirou/gopsutil/v4/net"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/clawbridge/clawbridge/tools/tool"
)

type portInfo struct {
	Protocol string `json:"protocol"` // tcp, tcp6, udp, udp6
	Address  string `json:"address"`
	Port     uint32 `json:"port"`
	PID      int32  `json:"pid,omitempty"`     // 0: owned by a process we may not inspect
	Process  string `json:"process,omitempty"` // program name when the pid is visible
}

type portsData struct {
	Protocol string     `json:"protocol"`
	Count    int        `json:"count"`
	Ports    []portInfo `json:"ports"`
	Note     string     `json:"note,omitempty"`
}

func (s *sys) ports(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	args := c.Args
	proto := args.StringOr("protocol", "all")
	kind := map[string]string{"all": "inet", "tcp": "tcp", "udp": "udp"}[proto]
	if kind == "" {
		return nil, tool.Invalid("protocol", fmt.Sprintf("unknown protocol %q", proto), "one of: all, tcp, udp")
	}
	conns, err := gnet.ConnectionsWithContext(ctx, kind)
	if err != nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "the socket tables (/proc/net) are not readable here", "ports: %v", err)
	}
	names := map[int32]string{}
	out := portsData{Protocol: proto, Ports: []portInfo{}}
	seen := map[portInfo]bool{}
	hidden := 0
	for _, c := range conns {
		var pi portInfo
		switch {
		case c.Type == syscall.SOCK_STREAM && c.Status == "LISTEN":
			pi.Protocol = "tcp"
		case c.Type == syscall.SOCK_DGRAM && c.Raddr.Port == 0:
			pi.Protocol = "udp" // bound and not connected: receiving from anyone
		default:
			continue
		}
		if c.Family == syscall.AF_INET6 {
			pi.Protocol += "6"
		}
		pi.Address, pi.Port, pi.PID = c.Laddr.IP, c.Laddr.Port, c.Pid
		if pi.PID > 0 {
			name, ok := names[pi.PID]
			if !ok {
				name, _ = (&process.Process{Pid: pi.PID}).NameWithContext(ctx)
				names[pi.PID] = name
			}
			pi.Process = name
		} else {
			hidden++
		}
		if seen[pi] { // a socket shared by forked workers
			continue
		}
		seen[pi] = true
		out.Ports = append(out.Ports, pi)
	}
	slices.SortFunc(out.Ports, func(a, b portInfo) int {
		return cmp.Or(cmp.Compare(a.Port, b.Port), cmp.Compare(a.Protocol, b.Protocol), cmp.Compare(a.Address, b.Address), cmp.Compare(a.PID, b.PID))
	})
	out.Count = len(out.Ports)
	if hidden > 0 {
		out.Note = "sockets without a pid belong to processes this server may not inspect (other users or other containers)"
	}
	return &tool.Result{Summary: fmt.Sprintf("%d listening sockets (%s)", out.Count, proto), Data: out}, nil
}
