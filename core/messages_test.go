package core

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fuzzInputs returns the committed inputs of lang's fuzz targets
// (testdata/fuzz/FuzzX/*, files of `go test fuzz v1` with one string).
func fuzzInputs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "lang", "*", "testdata", "fuzz", "*", "*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if arg, ok := strings.CutPrefix(line, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(arg, ")")); err == nil {
					out = append(out, s)
				}
			}
		}
	}
	if len(files) == 0 || len(out) == 0 {
		t.Fatalf("no fuzz inputs under lang/*/testdata/fuzz (%d files)", len(files))
	}
	return out
}

// utf8Texts are the texts TestMessagesAreUTF8 reads the messages of: the
// corpus programs and mutants, the committed inputs of the fuzz targets,
// and each of them spoilt.
func utf8Texts(t *testing.T) []string {
	t.Helper()
	texts := []string{
		// describe clipped a text literal after 30 bytes, inside a character
		"store x as 1 \"" + strings.Repeat("é", 40) + "\"\n",
		"display \"" + strings.Repeat("日本", 20) + "\" \"" + strings.Repeat("→", 40) + "\"\n",
		"store x as \xff\n",
		"display \"a\xffb\" 1 \"" + strings.Repeat("x", 29) + "\xe2\x82\"\n",
		"check if \"\xe2\x82\xac\xe2\" is 1 \"\xc3\":\nend check\n",
	}
	for _, src := range corpusPrograms(t, 10) {
		texts = append(texts, src)
	}
	texts = append(texts, fuzzInputs(t)...)
	spoilt := make([]string, 0, 3*len(texts))
	for _, src := range texts {
		if i := strings.IndexByte(src, '"'); i >= 0 {
			spoilt = append(spoilt, src[:i+1]+"\xe2\x82"+src[i+1:])
		}
		spoilt = append(spoilt, "\xff"+src, src+"\nstore y as 1 \""+strings.Repeat("ü", 31)+"\"\n")
	}
	texts = append(texts, spoilt...)
	return texts
}
