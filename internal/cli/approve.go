package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/server"
)

// cmdApprove lists the calls waiting for approval, or approves or rejects
// one by id. It opens only the store of the configured data dir, not the
// server, so it works beside a running server in another process: the
// waiting server sees the decision on its next poll.
func cmdApprove(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cfgPath := newFlags("approve")
	reject := fs.Bool("reject", false, "reject the call instead of approving it")
	if err := parseLoose(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError("approve: give one id: clawbridge approve [--reject] ID")
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		return err
	}
	st, err := openStore(cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if fs.NArg() == 0 {
		if *reject {
			return usageError("approve --reject: name the call: clawbridge approve --reject ID")
		}
		return listPending(ctx, st, stdout)
	}
	id := fs.Arg(0)
	if err := server.Decide(ctx, st, id, !*reject); err != nil {
		return fmt.Errorf("%s: %w", id, err)
	}
	if *reject {
		fmt.Fprintf(stdout, "rejected %s: it will not run\n", id)
	} else {
		fmt.Fprintf(stdout, "approved %s: it runs once, now\n", id)
	}
	return nil
}

func listPending(ctx context.Context, st *store.Store, stdout io.Writer) error {
	calls, err := server.ListPending(ctx, st)
	if err != nil {
		return err
	}
	if len(calls) == 0 {
		fmt.Fprintln(stdout, "no calls are waiting for approval")
		return nil
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tWAITING\tLEFT\tCALL")
	for _, c := range calls {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.ID, time.Since(c.Created).Round(time.Second), time.Until(c.Expires).Round(time.Second), c.Preview)
	}
	fmt.Fprintln(w, "\napprove one with `clawbridge approve ID`, reject it with `clawbridge approve --reject ID`")
	return w.Flush()
}
