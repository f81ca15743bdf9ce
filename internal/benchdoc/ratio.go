package benchdoc

import (
	"testing"
	"time"
)

// Ratio measures a WFL workload beside a Go one in one benchmark: each of
// b.N iterations runs wfl, over wflBytes bytes, then goRun, over goBytes.
// It reports each workload's MB/s ("wfl-MB/s", "go-MB/s") and their ratio
// ("wfl/go"; above 1, ours is faster per byte). Each speed is taken from
// the workload's fastest pass, because load from other processes only ever
// adds time: on a shared machine the fastest passes are the comparable
// ones.
func Ratio(b *testing.B, wflBytes int, wfl func(), goBytes int, goRun func()) {
	tw, tg := time.Duration(1<<62), time.Duration(1<<62)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		wfl()
		mid := time.Now()
		goRun()
		tg = min(tg, time.Since(mid))
		tw = min(tw, mid.Sub(start))
	}
	wmbs := float64(wflBytes) / tw.Seconds() / 1e6
	gmbs := float64(goBytes) / tg.Seconds() / 1e6
	b.ReportMetric(wmbs, "wfl-MB/s")
	b.ReportMetric(gmbs, "go-MB/s")
	b.ReportMetric(wmbs/gmbs, "wfl/go")
}
