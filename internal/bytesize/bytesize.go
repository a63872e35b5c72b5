// Package bytesize formats byte counts for the messages of the memory
// budgets (the services' and the web viewer's), so that both say sizes
// the same way. Standard library only.
package bytesize

import "fmt"

// Format formats a byte count for messages in binary units with one
// decimal: "1.7 GiB", "312.0 MiB", "2.0 KiB"; below 1 KiB, "512 B".
func Format(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
