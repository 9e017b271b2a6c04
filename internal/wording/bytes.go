package wording

import "fmt"

// Bytes is a size in bytes as people read it: "512 B", "1.5 KiB",
// "3.2 GiB" (powers of 1024, one decimal).
func Bytes[N ~int64 | ~uint64](n N) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := N(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
