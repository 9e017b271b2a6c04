package tooltest

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// OnlyFile fails the test unless res reports exactly one file, and returns
// its path.
func OnlyFile(t testing.TB, res *tool.Result) string {
	t.Helper()
	if len(res.Files) != 1 {
		t.Fatalf("files %v", res.Files)
	}
	return res.Files[0].Path
}
