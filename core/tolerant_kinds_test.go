package core

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTolerantReadsKinds holds that which findings the tolerant list
// shows while the text is broken follows what they are about (Kind and
// Names), not their messages: with every message reworded, the list holds
// the same findings. The texts are a few of tolerant's rules and the
// corpus's programs and every tenth mutant, each also with one line in
// eleven cut in half.
func TestTolerantReadsKinds(t *testing.T) {
	texts := []string{
		"store total as\ndisplay total\n",                                       // a name the broken line names
		"store\ndisplay nope\n",                                                 // an earlier broken line may declare it
		"store f as sum_two\nstore\ndisplay f\n",                                // stored from such a name
		"define action called greet:\n    display nme\nend action\ncall gree\n", // the word being typed
		"create container Box:\n    property size: Number\nend\ncreate new Box as b:\n    size is\nend\ndisplay b.weight\n",
	}
	for _, src := range corpusPrograms(t, 10) {
		texts = append(texts, src)
		lines := strings.SplitAfter(src, "\n")
		for k := 3; k < len(lines); k += 11 {
			l := lines[k]
			texts = append(texts, strings.Join(lines[:k], "")+l[:len(l)/2]+"\n"+strings.Join(lines[k+1:], ""))
		}
	}
	slices.Sort(texts)
	shown := func(st *diagState) []string {
		var out []string
		for d := range st.tolerant() {
			out = append(out, fmt.Sprintf("%d-%d %s %v", d.Span.Start, d.Span.End, d.Code, d.Kind))
		}
		slices.Sort(out)
		return out
	}
	differ := 0
	for _, src := range texts {
		st := defaultSnapshot(t, src).diagState()
		want := shown(st)
		for _, u := range st.units {
			if u.d == nil {
				continue
			}
			for i := range u.d.list {
				u.d.list[i].Message = "reworded for people"
			}
		}
		if got := shown(st); !slices.Equal(got, want) {
			if differ++; differ <= 5 {
				t.Errorf("%q: with the messages reworded, the tolerant list is\n%q\nwant\n%q", src, got, want)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d texts' tolerant lists change with the messages", differ, len(texts))
	}
}

// defaultSnapshot makes a snapshot of src in a folder with no .wflcfg, so
// the default configuration applies.
func defaultSnapshot(t *testing.T, src string) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	return NewSnapshot(FileURI(filepath.Join(dir, "a.wfl")), 1, src)
}
