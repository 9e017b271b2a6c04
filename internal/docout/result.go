package docout

import (
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Result reports what SaveOffice wrote: the summary, with " and a PDF copy"
// when pdf is set, and the tool's data with the document's path and the
// files added.
func Result(sb *sandbox.Sandbox, out string, files []tool.File, pdf bool, summary string, data map[string]any) *tool.Result {
	if pdf {
		summary += " and a PDF copy"
	}
	data["path"], data["files"] = sb.Rel(out), Files(sb, files)
	return &tool.Result{Summary: summary + ".", Data: data, Files: files}
}
