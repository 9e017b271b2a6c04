package dataproc

import (
	"context"
	"errors"
	"fmt"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// errStop ends eachRow early, without an error (read stops at its limit).
var errStop = errors.New("stop reading")

// Every streaming loop over a reader's rows (read, describe, clean, export)
// is eachRow: it checks the call's context every ctxEvery rows, so a
// cancelled or timed-out call stops within a few milliseconds even on a
// file of millions of rows, and reports progress every progressEvery rows.
const (
	ctxEvery      = 1024
	progressEvery = 20000
)

// eachRow calls fn with each row's cells and row number until the reader
// ends, fn returns errStop (not an error) or another error (returned), or
// ctx is done (a timeout tool error). what names the rows in progress
// messages ("rows read"). It returns the rows fn accepted.
func eachRow(ctx context.Context, c *tool.Call, r *table.Reader, what string, fn func(cells []string, num int) error) (int, error) {
	n := 0
	for {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return n, toolErr(err)
			}
		}
		cells, num, err := r.Next()
		if isEOF(err) {
			return n, nil
		}
		if err != nil {
			return n, toolErr(err)
		}
		if err := fn(cells, num); err != nil {
			if errors.Is(err, errStop) {
				return n, nil
			}
			return n, err
		}
		n++
		if n%progressEvery == 0 {
			c.Progress(float64(n), 0, fmt.Sprintf("%d %s", n, what))
		}
	}
}
