package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
)

// cmdBridge is `clawbridge bridge status`, `clawbridge bridge approve
// SERVER` and `clawbridge bridge refresh [SERVER...]`. Status and approve
// read the cached manifests, pins and recorded states in the data dir and
// start no server, so they work beside a running clawbridge; refresh starts
// each server just long enough to read its manifest.
func cmdBridge(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		return helpRequest(commandHelp["bridge status"] + "\n" + commandHelp["bridge approve"] + "\n" + commandHelp["bridge refresh"])
	}
	if len(args) == 0 || (args[0] != "status" && args[0] != "approve" && args[0] != "refresh") {
		return usageError("bridge: clawbridge bridge status | clawbridge bridge approve SERVER | clawbridge bridge refresh [SERVER...]")
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
	if args[0] == "refresh" {
		return refreshManifests(ctx, m, fs.Args(), stdout)
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

// refreshManifests reads the manifests of the named servers (all when none
// is named) and says what each lists; a running clawbridge sees the new
// cache when its server next starts or lists its tools again.
func refreshManifests(ctx context.Context, m *bridge.Manager, names []string, stdout io.Writer) error {
	if len(names) == 0 {
		names = m.Names()
	}
	for _, name := range names {
		if _, ok := m.Server(name); !ok {
			return usageError(fmt.Sprintf("bridge refresh: unknown server %q; configured servers: %s", name, strings.Join(m.Names(), ", ")))
		}
	}
	var failed []string
	for _, name := range names {
		n, err := m.Read(ctx, name)
		if err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", name, err)
			failed = append(failed, name)
			continue
		}
		fmt.Fprintf(stdout, "%s: %d tools in its manifest\n", name, n)
	}
	for _, s := range m.Status() {
		if len(s.Held) > 0 && slices.Contains(names, s.Name) {
			fmt.Fprintf(stdout, "%s: CHANGED since approved, held out of every view and refused: %s (review, then: clawbridge bridge approve %s)\n", s.Name, strings.Join(s.Held, ", "), s.Name)
		}
	}
	if len(failed) > 0 {
		return errors.New("bridge refresh: could not read " + strings.Join(failed, ", ") + " (`clawbridge bridge status` shows the error)")
	}
	return nil
}
