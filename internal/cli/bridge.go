package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"clawbridge/internal/bridge"
	"clawbridge/internal/config"
	"clawbridge/internal/netguard"
)

// cmdBridge is `clawbridge bridge status` and `clawbridge bridge approve
// SERVER`. It reads the cached manifests, pins and recorded states in the
// data dir and starts no server, so it works beside a running clawbridge.
func cmdBridge(args []string, stdout io.Writer) error {
	if len(args) == 0 || (args[0] != "status" && args[0] != "approve") {
		return usageError("bridge: clawbridge bridge status | clawbridge bridge approve SERVER")
	}
	fs, cfgPath := newFlags("bridge " + args[0])
	if err := parseLoose(fs, args[1:]); err != nil {
		return err
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		return err
	}
	guard, err := netguard.New(cfg.Network.AllowHosts)
	if err != nil {
		return err
	}
	m, err := bridge.New(bridge.Options{Config: cfg.Bridge, DataDir: cfg.DataDir, Guard: guard, Log: zerolog.Nop()})
	if err != nil {
		return err
	}
	defer m.Close()
	if args[0] == "approve" {
		if fs.NArg() != 1 {
			return usageError("bridge approve: name one server: clawbridge bridge approve SERVER")
		}
		released, err := m.Approve(fs.Arg(0))
		if err != nil {
			return err
		}
		if len(released) == 0 {
			fmt.Fprintf(stdout, "approved the current definitions of %s (none was held)\n", fs.Arg(0))
		} else {
			fmt.Fprintf(stdout, "approved %s: released %s\n", fs.Arg(0), strings.Join(released, ", "))
		}
		return nil
	}
	if len(m.Names()) == 0 {
		fmt.Fprintln(stdout, "no bridge servers are configured (bridge.servers in the config)")
		return nil
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SERVER\tTRANSPORT\tSTATE\tTOOLS\tLEVEL\tPUBLISH\tPID")
	for _, s := range m.Status() {
		pid := ""
		if s.PID > 0 {
			pid = fmt.Sprint(s.PID)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", s.Name, s.Transport, s.State, s.Tools, s.Level, s.Publish, pid)
	}
	w.Flush()
	for _, s := range m.Status() {
		if s.LastError != "" {
			fmt.Fprintf(stdout, "%s: last error: %s\n", s.Name, s.LastError)
		}
		if len(s.Held) > 0 {
			fmt.Fprintf(stdout, "%s: CHANGED since approved, held out of every view and refused: %s (review, then: clawbridge bridge approve %s)\n", s.Name, strings.Join(s.Held, ", "), s.Name)
		}
		for _, f := range s.Flags {
			fmt.Fprintf(stdout, "%s: FLAGGED %s: %s\n", s.Name, f.Tool, f.Reason)
		}
		for _, u := range s.Unpublished {
			fmt.Fprintf(stdout, "%s: NOT PUBLISHED %s as %s: %s (still reachable through mcp_bridge call)\n", s.Name, u.Tool, u.Name, u.Reason)
		}
	}
	return nil
}
