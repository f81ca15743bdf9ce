package typingbench

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Usage is what a server's process used over its whole life (the start,
// the document's opening, the unmeasured round and the keystrokes):
// processor time, the most memory it held, and the minor page faults (a
// page of memory touched for the first time: what the heap growing costs
// on top of the work). MaxRSS and Faults are -1 where the system does not
// report them.
type Usage struct {
	CPU    time.Duration
	MaxRSS int64 // bytes
	Faults int64
}

// usageOf reads a process's usage once it has exited.
func usageOf(ps *os.ProcessState) Usage {
	if ps == nil {
		return Usage{MaxRSS: -1, Faults: -1}
	}
	u := Usage{CPU: ps.UserTime() + ps.SystemTime(), MaxRSS: -1, Faults: -1}
	sysUsage(ps, &u)
	return u
}

// WriteUsage writes each server's usage as a Markdown table.
func WriteUsage(w io.Writer, results []*Result) {
	tw, row := markdownTable(w)
	row("server", "document", "CPU s", "max RSS MB", "minor page faults")
	row("---", "---", "---:", "---:", "---:")
	for _, r := range results {
		rss, faults := "-", "-"
		if r.Usage.MaxRSS >= 0 {
			rss = fmt.Sprintf("%.0f", float64(r.Usage.MaxRSS)/(1<<20))
		}
		if r.Usage.Faults >= 0 {
			faults = fmt.Sprint(r.Usage.Faults)
		}
		row(r.Server, r.Doc, fmt.Sprintf("%.1f", r.Usage.CPU.Seconds()), rss, faults)
	}
	tw.Flush()
}
