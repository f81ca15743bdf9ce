package core_test

import (
	"path/filepath"
	"testing"
	"unicode/utf8"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

// TestMessagesAreUTF8 holds every message the front end and the core make
// (diagnostics, the list shown while typing, the formatter's refusal, the
// titles of quick fixes) to valid UTF-8, whatever bytes the text holds: a
// message with a raw byte makes strict JSON decoders drop the whole frame.
// The texts are the corpus programs and mutants, the committed inputs of
// the fuzz targets, and each of them spoilt: a character cut in half at the
// start of its first string literal, a stray byte that is not UTF-8, a
// string literal of long multi-byte text where an expression cannot go.
func TestMessagesAreUTF8(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	texts := core.UTF8Texts(t)
	valid := func(what, msg, src string) {
		t.Helper()
		if !utf8.ValidString(msg) {
			t.Fatalf("%s is not UTF-8: %q\nin %q", what, msg, src)
		}
	}
	for _, src := range texts {
		s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
		_, diags := s.Diagnostics()
		_, tolerant := s.Tolerant()
		for _, d := range append(diags, tolerant...) {
			valid("diagnostic "+d.Code, d.Message, src)
			for _, r := range d.Related {
				valid("related message", r.Message, src)
			}
		}
		if _, err := presentation.Format(s); err != nil {
			valid("formatting error", err.Error(), src)
		}
	}
}
