package completion

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

var completionDump = flag.String("completion.dump", "", "write a digest of every answer TestCompletionCut asks for to this file")

// TestCompletionCut asks completion at every few bytes of the corpus's
// programs (and a sample of the mutants) and of benchdoc's documents, then
// after random edits and while a name is typed and deleted a character at
// a time (each a Workspace.Change, so that most answers come from a partial
// analysis), with and without snippets, and checks that the answer cut at
// Max items (1, 5, and the 201 the LSP layer asks for) is the first Max
// items of the whole answer, over the same span, and that the whole answer
// is what plainFilter makes of every candidate offered.
//
// With -completion.dump FILE it writes, for each place, a line with the
// span and a digest of each answer's items (label, kind, detail, doc,
// insert text, snippet, in order): the files written before and after a
// change of completion's machinery are equal when its answers are.
//
//	go test -run CompletionCut ./core/completion -args -completion.dump /tmp/after
//	go test -run CompletionCut -stress 1 ./core   (a third of the mutants, every third byte)
func TestCompletionCut(t *testing.T) {
	core.PartialEverywhere(t)
	stride, step, edits, seed := 600, 37, 2, uint64(3)
	if testing.Short() {
		stride, step, edits = 3000, 97, 2
	}
	if *coretest.Stress > 0 {
		stride, step, edits, seed = 3, 3, 8, uint64(*coretest.Stress)
	}
	// Under the race detector, every twelfth of those places (and a 32nd of
	// the programs, coretest.Programs), and not the two long documents.
	step *= testcorpus.RaceStride(12)
	progs := coretest.Programs(t, stride)
	if !testcorpus.Race {
		progs["benchdoc/clean"] = benchdoc.Clean(1200)
		progs["benchdoc/dense"] = benchdoc.Dense(600)
	}

	var dump *bufio.Writer
	if *completionDump != "" {
		f, err := os.Create(*completionDump)
		if err != nil {
			t.Fatal(err)
		}
		dump = bufio.NewWriter(f)
		defer func() {
			if err := dump.Flush(); err != nil {
				t.Error(err)
			}
			if err := f.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	answers := 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := featuretest.OpenAnalysed(path, progs[path])
		ask := func(what string, offset int) {
			answers++
			d := checkCut(s, offset, dump != nil)
			if d.err != "" {
				t.Fatalf("%s, %s, at %d: %s\ntext:\n%s", path, what, offset, d.err, s.Text)
			}
			if dump != nil {
				fmt.Fprintf(dump, "%s %s %d %s\n", path, what, offset, d.digest)
			}
		}
		for off := 0; off <= len(s.Text); off += step {
			ask("open", off)
		}
		for k := 0; k < edits; k++ {
			var e core.Edit
			s, e = featuretest.ChangeAtRandom(t, ws, s, rng)
			s.Diagnostics()
			// Every few bytes around the edit, and a few places elsewhere.
			for off := max(0, e.Start-90); off <= min(len(s.Text), e.Start+len(e.Text)+90); off += max(1, step/3) {
				ask(fmt.Sprintf("edit%d", k), off)
			}
			for range 4 {
				ask(fmt.Sprintf("edit%d", k), rng.IntN(len(s.Text)+1))
			}
			// Type words of the text (a name of several, perhaps) at the
			// end of a line, after an operator, then delete them, asking
			// at the cursor each time.
			words := strings.FieldsFunc(s.Text, func(r rune) bool { return r > 127 || !wordByte(byte(r)) })
			if len(words) == 0 {
				continue
			}
			i := rng.IntN(len(words))
			typed := "+" + strings.Join(words[i:min(len(words), i+1+rng.IntN(3))], " ")
			p := rng.IntN(len(s.Text) + 1)
			at := strings.IndexByte(s.Text[p:], '\n') // a line's end
			if at < 0 {
				continue
			}
			at += p
			keys := make([]core.Edit, 0, 2*len(typed))
			for i := range len(typed) {
				keys = append(keys, core.Edit{Start: at + i, End: at + i, Text: typed[i : i+1]})
			}
			for i := len(typed); i > 0; i-- {
				keys = append(keys, core.Edit{Start: at + i - 1, End: at + i})
			}
			for i, key := range keys {
				var err error
				if s, err = ws.Change(uri, s.Version+1, key); err != nil {
					t.Fatal(err)
				}
				s.Diagnostics()
				ask(fmt.Sprintf("type%d.%d", k, i), key.Start+len(key.Text))
			}
		}
	}
	t.Logf("%d programs, %d places asked", len(progs), answers)
}

// A cutCheck is what checkCut found at one place.
type cutCheck struct {
	err    string // the first difference, or ""
	digest string // the spans and digests of the answers
}

// checkCut asks completion at offset of s with and without snippets, whole
// and cut, and compares each cut answer with the whole one's first items,
// and the whole one with plainFilter's; with digest set, it digests the
// whole answers.
func checkCut(s *core.Snapshot, offset int, digest bool) cutCheck {
	var c cutCheck
	a := s.Query(token.Span{Start: offset, End: offset})
	path := s.URI.Path()
	var digests []string
	for _, snippets := range []bool{false, true} {
		opts := Options{Snippets: snippets, Path: path}
		span, all := List(a, offset, opts)
		l := &candidateList{every: true}
		want, prefix, listed, wantAll := propose(a, l, offset, opts)
		if listed {
			want, wantAll = plainFilter(a, l, want, prefix)
		}
		if c.err == "" && (want != span || !reflect.DeepEqual(all, wantAll)) {
			c.err = fmt.Sprintf("snippets %v: %v %q, want %v %q", snippets, span, labels(all), want, labels(wantAll))
		}
		if digest {
			digests = append(digests, fmt.Sprintf("%d-%d:%d:%x", span.Start, span.End, len(all), itemsDigest(all)))
		}
		for _, n := range []int{1, 5, 201} {
			opts.Max = n
			sp, some := List(a, offset, opts)
			if c.err == "" && (sp != span || !reflect.DeepEqual(some, all[:min(n, len(all))])) {
				c.err = fmt.Sprintf("snippets %v, max %d: %v %q, want the first of %v %q", snippets, n, sp, labels(some), span, labels(all))
			}
		}
	}
	c.digest = strings.Join(digests, " ")
	return c
}

// itemsDigest digests what a client is shown of items, in order.
func itemsDigest(items []Item) uint64 {
	h := fnv.New64a()
	for _, it := range items {
		for _, s := range []string{it.Label, it.Detail, it.Doc, it.Insert, it.Snippet} {
			fmt.Fprintf(h, "%d:%s", len(s), s)
		}
		fmt.Fprintf(h, "%d\n", it.Kind)
	}
	return h.Sum64()
}

// plainFilter is filter as its doc says it is, over a list of every
// candidate offered (candidateList.every): of the candidates whose label
// starts with the prefix, ignoring case, the first of each label, ordered
// by weight and label; if none and the prefix has several words, the same
// with its last word, which alone is replaced.
func plainFilter(a *core.Analysis, l *candidateList, span token.Span, prefix string) (token.Span, []Item) {
	match := func(prefix string) []candidate {
		var out []candidate
		seen := map[string]bool{}
		for _, c := range l.cands {
			if strings.HasPrefix(strings.ToLower(c.label), strings.ToLower(prefix)) && !seen[c.label] {
				seen[c.label] = true
				out = append(out, c)
			}
		}
		return out
	}
	out := match(prefix)
	if words := strings.Fields(prefix); len(out) == 0 && len(words) > 1 {
		last := words[len(words)-1]
		span.Start = span.End - len(last)
		out = match(last)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].weight != out[j].weight {
			return out[i].weight < out[j].weight
		}
		return out[i].label < out[j].label
	})
	items := make([]Item, len(out))
	for i := range out {
		items[i] = finish(a, &out[i])
	}
	return span, items
}

// TestStringSet adds strings to a set, emptied now and then, and checks
// what it says against a map's.
func TestStringSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var set stringSet
	want := map[string]bool{}
	for round := range 60 {
		n := rng.IntN(3000)
		for range n {
			s := fmt.Sprintf("name %d", rng.IntN(n+1))
			if got := set.add(s); got == want[s] {
				t.Fatalf("round %d: add(%q) = %v with the set holding %d", round, s, got, len(want))
			}
			want[s] = true
		}
		if len(set.members) != len(want) {
			t.Fatalf("round %d: %d members, want %d", round, len(set.members), len(want))
		}
		set.reset()
		clear(want)
		if round == 30 {
			set.gen = ^uint32(0) // the next reset starts the generations again
		}
	}
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
