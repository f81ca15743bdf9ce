package check_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// refDiag is one row of the reference's verdicts.
type refDiag struct {
	kind string // PARSE, SEMA-E, SEMA-W, TYPE
	line int
	code string
}

// loadVerdicts reads wfl-reference.tsv (corpus) or wfl-mutants/expected.tsv.
func loadVerdicts(t *testing.T, tsv string, pathCol, kindCol int, dir string) map[string][]refDiag {
	t.Helper()
	fh, err := os.Open(tsv)
	if err != nil {
		t.Fatal("the corpus has no verdicts:", err) // testcorpus.Dir found the corpus
	}
	defer fh.Close()
	out := map[string][]refDiag{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if first && cols[0] == "file" {
			first = false
			continue
		}
		first = false
		if len(cols) <= kindCol+1 {
			continue
		}
		p := filepath.Join(dir, cols[pathCol])
		kind := cols[kindCol]
		if kind == "OK" {
			out[p] = append(out[p], refDiag{})
			continue
		}
		line, _ := strconv.Atoi(strings.SplitN(cols[kindCol+1], ":", 2)[0])
		code := ""
		if strings.HasPrefix(kind, "SEMA") && len(cols) > kindCol+2 {
			code = cols[kindCol+2]
		}
		out[p] = append(out[p], refDiag{kind, line, code})
	}
	return out
}

func classOf(ds []refDiag) string {
	for _, k := range []string{"PARSE", "SEMA-E", "TYPE"} {
		for _, d := range ds {
			if d.kind == k {
				return k
			}
		}
	}
	return "OK"
}

// verdict is what our front end says of a program in the reference's terms,
// with what the deviation rules need to know.
type verdict struct {
	diags    []refDiag
	messages map[refDiag]string // our warnings' messages
	reads    map[int]bool       // lines declaring a variable that a statement reads (Info.Uses)
}

// ourVerdict runs the front end like `wfl-lsp check` and expresses the result
// in the reference's terms.
func ourVerdict(src string) verdict {
	f, pd := parser.Parse(src)
	lines := token.NewLines(src)
	var out []refDiag
	for _, d := range pd {
		if d.Severity == diag.Error {
			l, _ := lines.OffsetPosition(d.Span.Start)
			return verdict{diags: []refDiag{{"PARSE", l, ""}}}
		}
	}
	info, ds := check.Check(f, src)
	v := verdict{messages: map[refDiag]string{}, reads: map[int]bool{}}
	for id, sym := range info.Uses {
		if (sym.Kind == check.SymVariable || sym.Kind == check.SymConstant) && sym.Decl.End > 0 {
			l, _ := lines.OffsetPosition(sym.Decl.Start)
			if sym.Decl != (token.Span{Start: id.Pos(), End: id.End()}) {
				v.reads[l] = true
			}
		}
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Span.Start < ds[j].Span.Start })
	for _, d := range ds {
		l, _ := lines.OffsetPosition(d.Span.Start)
		switch {
		case d.Category == diag.Semantic && d.Severity == diag.Error:
			out = append(out, refDiag{"SEMA-E", l, d.Code})
		case d.Category == diag.Semantic:
			r := refDiag{"SEMA-W", l, d.Code}
			out = append(out, r)
			v.messages[r] = d.Message
		case d.Category == diag.Type:
			out = append(out, refDiag{"TYPE", l, ""})
		}
	}
	v.diags = out
	return v
}

// undefinedWarning matches the warnings we give, where the reference is
// silent, for a name that is not bound in a position it does not check.
var undefinedWarning = regexp.MustCompile(`^(Variable '.*' is not defined|Undefined action '.*'|Undefined list reference '.*' in pattern|Interface '.*' is not defined|Type '.*' is not defined: .*)$`)

// deviation explains a warning that we report and the reference does not
// (extra) or the other way round, where we are right and the reference is
// not (README.md lists these kinds); "" when it is not one of them.
func deviation(d refDiag, extra bool, v verdict) string {
	switch {
	case extra && d.code == "ANALYZE-SEMANTIC" && undefinedWarning.MatchString(v.messages[d]):
		return "a name that is not bound, in a position the reference does not check"
	case !extra && d.code == "ANALYZE-UNUSED" && v.reads[d.line]:
		return "a variable read in a statement the reference's unused check does not visit"
	}
	return ""
}

// TestReferenceParity compares our semantic and type verdicts with the
// reference's on every corpus program and mutant that both front ends
// parse: the class (semantic error, type error or valid), the line of the
// first error of that class, and the set of warnings (code, line) on valid
// programs. Parse parity is the parser's own test.
func TestReferenceParity(t *testing.T) {
	t.Parallel()
	corpusDir := testcorpus.Dir(t)
	sets := []struct {
		name string
		refs map[string][]refDiag
	}{
		{"corpus", loadVerdicts(t, filepath.Join(corpusDir, "wfl-reference.tsv"), 0, 1, filepath.Join(corpusDir, "wfl"))},
		{"mutants", loadVerdicts(t, filepath.Join(corpusDir, "wfl-mutants", "expected.tsv"), 0, 3, filepath.Join(corpusDir, "wfl-mutants"))},
	}
	for _, set := range sets {
		compared, bad := 0, 0
		hits, refWarnings, ourWarnings := 0, 0, 0
		kinds := map[string]int{}
		var paths []string
		for p := range set.refs {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			ref := set.refs[p]
			if classOf(ref) == "PARSE" {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			v := ourVerdict(string(data))
			ours := v.diags
			if classOf(ours) == "PARSE" {
				continue // a parser disagreement, reported by the parser's tests
			}
			compared++
			rc, oc := classOf(ref), classOf(ours)
			if rc != oc {
				bad++
				t.Errorf("%s: class %s, reference %s", p, oc, rc)
				continue
			}
			if rc != "OK" {
				first := func(ds []refDiag) int {
					for _, d := range ds {
						if d.kind == rc {
							return d.line
						}
					}
					return -1
				}
				if r := first(ref); r > 0 && first(ours) != r {
					bad++
					t.Errorf("%s: first %s on line %d, reference line %d", p, rc, first(ours), r)
				}
				continue
			}
			want, got := map[refDiag]bool{}, map[refDiag]bool{}
			for _, d := range ref {
				if d.kind == "SEMA-W" {
					want[d] = true
				}
			}
			for _, d := range ours {
				if d.kind == "SEMA-W" {
					got[d] = true
				}
			}
			refWarnings += len(want)
			ourWarnings += len(got)
			for d := range want {
				if got[d] {
					hits++
					continue
				}
				if k := deviation(d, false, v); k != "" {
					kinds[k]++
					continue
				}
				bad++
				t.Errorf("%s: missing warning %s on line %d", p, d.code, d.line)
			}
			for d := range got {
				if want[d] {
					continue
				}
				if k := deviation(d, true, v); k != "" {
					kinds[k]++
					continue
				}
				bad++
				t.Errorf("%s: extra warning %s on line %d: %s", p, d.code, d.line, v.messages[d])
			}
		}
		t.Logf("%s: %d programs compared, %d disagreements", set.name, compared, bad)
		for k, n := range kinds {
			t.Logf("%s: %d warnings differ where we are right: %s", set.name, n, k)
		}
		if compared == 0 {
			t.Errorf("%s: nothing compared", set.name)
		}
		// Where we are right and the reference is not, the warnings may
		// differ, but no more than 3% of them either way.
		recall, precision := float64(hits)/float64(max(refWarnings, 1)), float64(hits)/float64(max(ourWarnings, 1))
		t.Logf("%s: warnings recall %d/%d, precision %d/%d", set.name, hits, refWarnings, hits, ourWarnings)
		if recall < 0.97 || precision < 0.97 {
			t.Errorf("%s: warnings recall %.3f, precision %.3f: at least 0.97 each", set.name, recall, precision)
		}
	}
}
