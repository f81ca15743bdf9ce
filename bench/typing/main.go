// Command typingbench types into wfl-lsp and into gopls v0.23.0 the same
// way, in one run, and prints what each made the editor wait for and the
// ratios: on each keystroke a didChange, then at once completion and
// signature help at the cursor (inside a call's arguments), hover, semantic
// tokens and inlay hints of the 60 visible lines; and the publishDiagnostics
// that follows (internal/typingbench). wfl-lsp types into benchdoc's clean
// WFL document, gopls into the same program written in Go (a module with
// one file of as many lines, typingbench.GoSource), at each size.
//
// It is its own module so that gopls never enters the product's go.mod.
// wfl-lsp is built from this checkout (../..) with `go build`; gopls is
// the one given with -gopls, or a gopls v0.23.0 on PATH or in GOPATH/bin,
// or installed with `go install golang.org/x/tools/gopls@v0.23.0` into a
// folder of the user's cache. When gopls cannot be had or started, the
// run prints "SKIP: <reason>" and measures wfl-lsp alone.
//
//	cd bench/typing && go run . [-keystrokes 1000] [-sizes 1000,10000] [-scenarios line,block,quote] [-requests hover,...] [-interval 0] [-sequential]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"wfl-lsp/internal/typingbench"
)

const goplsVersion = "v0.23.0"

func main() {
	keystrokes := flag.Int("keystrokes", 1000, "measured keystrokes a document")
	sizes := flag.String("sizes", "1000,10000", "document sizes in lines, comma-separated")
	scenarios := flag.String("scenarios", "line,block,quote", "what is typed: line (a second operand into a call), block (a block's header and body, its closer not typed), quote (a line with a string, its quote open while it is typed), comma-separated")
	sequential := flag.Bool("sequential", false, "write each request after the previous one's answer, instead of all at once")
	gopls := flag.String("gopls", "", "the gopls binary (default: gopls "+goplsVersion+" found or installed)")
	server := flag.String("wfl-lsp", "", "the wfl-lsp binary (default: built from ../..)")
	requests := flag.String("requests", "", "the requests sent after each keystroke, comma-separated, in this order (default: all of them): "+kindNames())
	interval := flag.Duration("interval", 0, "the least time from one keystroke to the next (0: each as soon as the last one's answers and diagnostics are in)")
	atRest := flag.Bool("at-rest", false, "send the requests without typing (no didChange): what the requests cost on a document at rest")
	floor := flag.Bool("floor", true, "after each wfl-lsp document, measure the machine's floor: a hover request's round trip through cat, as many times, each after a keystroke's median length")
	flag.Parse()
	kinds, err := parseKinds(*requests)
	if err != nil {
		fmt.Fprintln(os.Stderr, "typingbench: -requests:", err)
		os.Exit(2)
	}
	if err := run(*keystrokes, *sizes, *scenarios, typingbench.Options{Sequential: *sequential, Requests: kinds, Interval: *interval, AtRest: *atRest}, *floor, *gopls, *server); err != nil {
		fmt.Fprintln(os.Stderr, "typingbench:", err)
		os.Exit(1)
	}
}

// kindNames lists the requests -requests may name.
func kindNames() string {
	var names []string
	for _, k := range typingbench.Kinds[:typingbench.Diagnostics] {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// parseKinds reads -requests: request names, comma-separated; none is all.
func parseKinds(list string) ([]typingbench.Kind, error) {
	var kinds []typingbench.Kind
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := slices.IndexFunc(typingbench.Kinds[:typingbench.Diagnostics], func(k typingbench.Kind) bool { return k.String() == name })
		if i < 0 {
			return nil, fmt.Errorf("%q is not one of %s", name, kindNames())
		}
		kinds = append(kinds, typingbench.Kinds[i])
	}
	return kinds, nil
}

func run(keystrokes int, sizeList, scenarioList string, opt typingbench.Options, floor bool, goplsPath, serverPath string) error {
	type scenario struct {
		wfl, gopls func(dir string, lines int) (typingbench.Doc, error)
	}
	var scenarios []scenario
	for _, s := range strings.Split(scenarioList, ",") {
		switch strings.TrimSpace(s) {
		case "line":
			scenarios = append(scenarios, scenario{func(dir string, lines int) (typingbench.Doc, error) {
				return typingbench.WFLDoc(dir, true, lines)
			}, typingbench.GoDoc})
		case "block":
			scenarios = append(scenarios, scenario{typingbench.BlockDoc, typingbench.GoBlockDoc})
		case "quote":
			scenarios = append(scenarios, scenario{typingbench.QuoteDoc, typingbench.GoQuoteDoc})
		default:
			return fmt.Errorf("-scenarios: %q is not line, block or quote", s)
		}
	}
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 50 {
			return fmt.Errorf("-sizes: %q is not a number of lines (at least 50)", s)
		}
		sizes = append(sizes, n)
	}
	tmp, err := os.MkdirTemp("", "typingbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	built := "given with -wfl-lsp"
	if serverPath == "" {
		if serverPath, err = buildServer(tmp); err != nil {
			return err
		}
		built = "built from ../.."
	}
	goVersion, _ := output("go", "version")
	fmt.Printf("wfl-lsp: %s (%s)\n", serverPath, built)
	fmt.Printf("go: %s\n", goVersion)
	if goplsPath == "" {
		goplsPath, err = findGopls()
	}
	if err != nil {
		fmt.Printf("SKIP: gopls %s: %v\n", goplsVersion, err)
		goplsPath = ""
	} else {
		v, err := output(goplsPath, "version")
		if err != nil {
			fmt.Printf("SKIP: gopls at %s does not run: %v\n", goplsPath, err)
			goplsPath = ""
		} else {
			fmt.Printf("gopls: %s (%s)\n", goplsPath, strings.ReplaceAll(v, "\n", "; "))
		}
	}
	fmt.Printf("machine: %d CPUs, GOMAXPROCS %d; load average at start: %s\n\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), loadavg())
	cpuStart, cpuOK := sampleCPU()
	typingbench.Explain(os.Stdout, keystrokes, opt.Sequential)
	if len(opt.Requests) > 0 {
		var names []string
		for _, k := range opt.Requests {
			names = append(names, k.String())
		}
		fmt.Printf("Sent after each keystroke here: %s only.\n", strings.Join(names, ", "))
	}
	if opt.Interval > 0 {
		fmt.Printf("Keystrokes at least %v apart, from one didChange to the next.\n", opt.Interval)
	}
	if opt.AtRest {
		fmt.Println("At rest: the requests are sent without a didChange before them (nothing is typed; no publishDiagnostics).")
	}
	fmt.Println()

	opt.Keystrokes = keystrokes
	var results []*typingbench.Result
	var pairs []typingbench.Pair
	var floors []floorRun
	for i, lines := range sizes {
		for j, sc := range scenarios {
			dir := filepath.Join(tmp, fmt.Sprintf("wfl-%d-%d", i, j))
			os.MkdirAll(dir, 0o755)
			doc, err := sc.wfl(dir, lines)
			if err != nil {
				return err
			}
			began := time.Now()
			ours, err := typingbench.Run(typingbench.Server{Name: "wfl-lsp", Cmd: exec.Command(serverPath)}, dir, doc, opt)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "wfl-lsp, %s: %.1fs\n", doc.Name, time.Since(began).Seconds())
			results = append(results, ours)
			if floor {
				f, err := measureFloor(ours, opt.Interval)
				if err != nil {
					fmt.Printf("SKIP: the machine's floor after %s: %v\n", doc.Name, err)
					floor = false
				} else {
					floors = append(floors, f)
				}
			}
			if goplsPath == "" {
				continue
			}
			dir = filepath.Join(tmp, fmt.Sprintf("go-%d-%d", i, j))
			os.MkdirAll(dir, 0o755)
			gdoc, err := sc.gopls(dir, lines)
			if err != nil {
				return err
			}
			began = time.Now()
			theirs, err := typingbench.Run(goplsServer(goplsPath, dir), dir, gdoc, opt)
			if err != nil {
				fmt.Printf("SKIP: gopls on %s: %v\n", gdoc.Name, err)
				continue
			}
			fmt.Fprintf(os.Stderr, "gopls, %s: %.1fs\n", gdoc.Name, time.Since(began).Seconds())
			results = append(results, theirs)
			pairs = append(pairs, typingbench.Pair{Ours: ours, Peer: theirs})
		}
	}
	typingbench.WriteTable(os.Stdout, results)
	fmt.Println()
	typingbench.WriteRatios(os.Stdout, pairs)
	fmt.Print("\nWhat each server's process used over its life (starting, opening the document, the unmeasured round, the keystrokes):\n\n")
	typingbench.WriteUsage(os.Stdout, results)
	writeFloors(floors)
	fmt.Printf("\nload average at the end: %s\n", loadavg())
	if cpuEnd, ok := sampleCPU(); ok && cpuOK {
		fmt.Println(cpuEnd.since(cpuStart))
	}
	return nil
}

// A floorRun is the machine's floor measured right after wfl-lsp typed
// into a document.
type floorRun struct {
	after string
	pause time.Duration
	stat  typingbench.Stat
}

// measureFloor measures the machine's floor as many times as ours has
// keystrokes, each round trip after a pause as long as its median
// keystroke, or, when the keystrokes came at an interval, as long as the
// server was idle between two of them: a processor left idle for tens of
// milliseconds wakes much later than one idle for one (on the benchmarks'
// virtual machine, a round trip through cat after 50 ms idle took 7.8 ms
// at p99, against 0.4 ms after 1 ms), and the tables' latencies then hold
// that wake-up too.
func measureFloor(ours *typingbench.Result, interval time.Duration) (floorRun, error) {
	median := ours.KeystrokeMedian()
	pause := max(median, interval-median)
	began := time.Now()
	st, err := typingbench.Floor(ours.Keystrokes, pause)
	fmt.Fprintf(os.Stderr, "floor after %s: %.1fs\n", ours.Doc, time.Since(began).Seconds())
	return floorRun{after: ours.Doc, pause: pause, stat: st}, err
}

// writeFloors writes the floors measured as a Markdown table.
func writeFloors(floors []floorRun) {
	if len(floors) == 0 {
		return
	}
	fmt.Print("\nThe machine's floor: a hover request written to cat and read back as an answer is read, " +
		"as many times as there were keystrokes, each after a pause as long as the median keystroke " +
		"just measured. No server answers under it on this machine at that moment.\n\n")
	fmt.Println("| measured after | pause ms | p50 ms | p90 ms | p99 ms | max ms |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, f := range floors {
		s := &f.stat
		fmt.Printf("| wfl-lsp, %s | %.2f | %.3f | %.3f | %.3f | %.3f |\n", f.after, msOf(f.pause),
			msOf(s.Percentile(0.5)), msOf(s.Percentile(0.9)), msOf(s.Percentile(0.99)), msOf(s.Percentile(1)))
	}
}

func msOf(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// buildServer builds wfl-lsp from the checkout this module lives in.
func buildServer(tmp string) (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.HasPrefix(mod, []byte("module wfl-lsp\n")) {
		return "", fmt.Errorf("%s is not wfl-lsp's checkout: run from bench/typing, or give -wfl-lsp", root)
	}
	bin := filepath.Join(tmp, "wfl-lsp")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir, cmd.Stderr = root, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building wfl-lsp: %w", err)
	}
	return bin, nil
}

// findGopls returns a gopls of the wanted version: on PATH, in GOPATH/bin,
// or installed into a folder of the user's cache (not GOPATH/bin, so that
// the user's own gopls stays as it is).
func findGopls() (string, error) {
	var candidates []string
	if p, err := exec.LookPath("gopls"); err == nil {
		candidates = append(candidates, p)
	}
	if gopath, err := output("go", "env", "GOPATH"); err == nil && gopath != "" {
		candidates = append(candidates, filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "bin", "gopls"))
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "wfl-lsp-bench", "gopls-"+goplsVersion)
	candidates = append(candidates, filepath.Join(bin, "gopls"))
	for _, c := range candidates {
		if v, err := output(c, "version"); err == nil && strings.Contains(v, "gopls "+goplsVersion) {
			return c, nil
		}
	}
	fmt.Fprintf(os.Stderr, "installing gopls %s into %s\n", goplsVersion, bin)
	cmd := exec.Command("go", "install", "golang.org/x/tools/gopls@"+goplsVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go install golang.org/x/tools/gopls@%s failed: %v: %s", goplsVersion, err, strings.TrimSpace(lastLines(stderr.String(), 5)))
	}
	return filepath.Join(bin, "gopls"), nil
}

// goplsServer returns gopls serving the module in dir with the settings
// VS Code's Go extension gives it for these requests: semantic tokens on,
// and every inlay hint on (wfl-lsp's hints name parameters and show types).
// GOTOOLCHAIN=local and GOPROXY=off keep it from the network; the module
// needs nothing outside the standard library.
func goplsServer(path, dir string) typingbench.Server {
	cmd := exec.Command(path, "serve")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off")
	settings := map[string]any{
		"semanticTokens": true,
		"hints": map[string]any{
			"assignVariableTypes": true, "compositeLiteralFields": true, "compositeLiteralTypes": true,
			"constantValues": true, "functionTypeParameters": true, "ignoredError": true,
			"parameterNames": true, "rangeVariableTypes": true,
		},
	}
	return typingbench.Server{Name: "gopls", Cmd: cmd, InitializationOptions: settings, Configuration: settings}
}

func output(name string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if s := strings.TrimSpace(stderr.String()); s != "" {
			err = errors.New(err.Error() + ": " + lastLines(s, 3))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// cpuSample is the machine's CPU time (/proc/stat, in clock ticks) and the
// CPU time of this process and its children that have ended.
type cpuSample struct {
	total, idle, steal uint64
	ours               time.Duration
}

func sampleCPU() (cpuSample, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuSample{}, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return cpuSample{}, false
	}
	var s cpuSample
	for i := 1; i <= 8; i++ { // user nice system idle iowait irq softirq steal
		v, _ := strconv.ParseUint(f[i], 10, 64)
		s.total += v
		switch i {
		case 4, 5:
			s.idle += v
		case 8:
			s.steal = v
		}
	}
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			s.ours += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return s, true
}

// since says how busy the machine was between two samples, and how much of
// it was this run (the client and the servers) and how much others.
func (s cpuSample) since(t cpuSample) string {
	const tick = 10 * time.Millisecond // USER_HZ = 100 on Linux
	total := time.Duration(s.total-t.total) * tick
	if total <= 0 {
		return ""
	}
	busy := time.Duration((s.total-s.idle)-(t.total-t.idle)) * tick
	ours := s.ours - t.ours
	pct := func(d time.Duration) float64 { return 100 * float64(d) / float64(total) }
	return fmt.Sprintf("CPU over the measurements: %.0f s of CPU time available, %.0f%% busy: %.0f%% this run (client and servers), %.0f%% other processes; steal %.1f%%",
		total.Seconds(), pct(busy), pct(ours), max(0, pct(busy-ours)), pct(time.Duration(s.steal-t.steal)*tick))
}
