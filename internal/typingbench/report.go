package typingbench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Metrics returns the run's figures as benchmark metrics: for each kind,
// "KIND-p50-µs" and "KIND-p99-µs".
func (r *Result) Metrics() map[string]float64 {
	m := map[string]float64{}
	for _, k := range Kinds {
		s := &r.Stats[k]
		if len(s.Samples) == 0 {
			continue
		}
		m[k.Metric()+"-p50-µs"] = micros(s.Percentile(0.50))
		m[k.Metric()+"-p99-µs"] = micros(s.Percentile(0.99))
	}
	return m
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// ms writes a duration in milliseconds: to the microsecond under 1 ms.
func ms(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%.3f", float64(d.Nanoseconds())/1e6)
	}
	return fmt.Sprintf("%.2f", float64(d.Nanoseconds())/1e6)
}

// Explain writes what the tables measure.
func Explain(w io.Writer, keystrokes int, sequential bool) {
	how := "all written with it, in one write,\nbefore any answer (as VS Code's providers send them)"
	if sequential {
		how = "each written after the\nprevious one's answer"
	}
	fmt.Fprintf(w, `Typing: %d keystrokes a document (after one unmeasured round), each a didChange typing or
deleting one character inside a call's arguments, then completion and signature help at the
cursor, hover, semantic tokens and inlay hints of the %d visible lines, the definition of the
name hovered, %s.
Milliseconds from writing a request to the last byte of its answer; publishDiagnostics: from
writing the didChange to the last byte of the publish carrying its version. "said": answers
that were not null or empty; "errors": error answers; "missed": keystrokes without a publish.
`, keystrokes, VisibleLines, how)
}

// markdownTable returns a writer that aligns a Markdown table's columns on
// w (flush it at the end) and the function that writes a row of it.
func markdownTable(w io.Writer) (*tabwriter.Writer, func(cells ...any)) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	return tw, func(cells ...any) {
		for _, c := range cells {
			fmt.Fprintf(tw, "| %v\t", c)
		}
		fmt.Fprintln(tw, "|")
	}
}

// WriteTable writes the results as a Markdown table, one row per kind.
func WriteTable(w io.Writer, results []*Result) {
	tw, row := markdownTable(w)
	row("server", "document", "lines", "request", "p50 ms", "p90 ms", "p99 ms", "max ms", "said", "errors")
	row("---", "---", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:")
	for _, r := range results {
		for _, k := range Kinds {
			s := &r.Stats[k]
			n := len(s.Samples)
			if n == 0 {
				row(r.Server, r.Doc, r.Lines, k, "-", "-", "-", "-", "", "")
				continue
			}
			said, errs := fmt.Sprintf("%d%%", 100*s.Said/n), fmt.Sprint(s.Errors)
			if k == Diagnostics {
				said, errs = "", ""
				if r.Missed > 0 {
					said = fmt.Sprintf("missed %d", r.Missed)
				}
			}
			row(r.Server, r.Doc, r.Lines, k, ms(s.Percentile(0.50)), ms(s.Percentile(0.90)),
				ms(s.Percentile(0.99)), ms(s.Percentile(1)), said, errs)
		}
	}
	tw.Flush()
}

// A Pair is one document measured on two servers: ours and a peer's.
type Pair struct{ Ours, Peer *Result }

// WriteRatios writes, for each pair and kind, the peer's p50 and p99 over
// ours as a Markdown table: above 1, ours is faster.
func WriteRatios(w io.Writer, pairs []Pair) {
	if len(pairs) == 0 {
		return
	}
	ours, peer := pairs[0].Ours.Server, pairs[0].Peer.Server
	fmt.Fprintf(w, "%s ÷ %s on the same keystrokes (above 1: %s is faster)\n\n", peer, ours, ours)
	tw, row := markdownTable(w)
	row("documents", "request", ours+" p50", peer+" p50", "p50 ratio", ours+" p99", peer+" p99", "p99 ratio")
	row("---", "---", "---:", "---:", "---:", "---:", "---:", "---:")
	for _, p := range pairs {
		docs := p.Ours.Doc + " vs " + p.Peer.Doc
		for _, k := range Kinds {
			a, b := &p.Ours.Stats[k], &p.Peer.Stats[k]
			if len(a.Samples) == 0 || len(b.Samples) == 0 {
				row(docs, k, "-", "-", "-", "-", "-", "-")
				continue
			}
			row(docs, k, ms(a.Percentile(0.50)), ms(b.Percentile(0.50)), ratio(b.Percentile(0.50), a.Percentile(0.50)),
				ms(a.Percentile(0.99)), ms(b.Percentile(0.99)), ratio(b.Percentile(0.99), a.Percentile(0.99)))
		}
	}
	tw.Flush()
}

func ratio(peer, ours time.Duration) string {
	if ours <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx", float64(peer)/float64(ours))
}
