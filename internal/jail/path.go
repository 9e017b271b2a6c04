package jail

import (
	"path/filepath"
	"strings"
)

// DefaultPath is the PATH a child process gets when the server itself runs
// without one.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// AbsPath keeps only the absolute entries of PATH p: an empty or relative
// entry would make a program name resolve to a file in the working
// directory, which the model may have written. With none left it is
// DefaultPath.
func AbsPath(p string) string {
	var keep []string
	for _, dir := range filepath.SplitList(p) {
		if filepath.IsAbs(dir) {
			keep = append(keep, dir)
		}
	}
	if len(keep) == 0 {
		return DefaultPath
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}
