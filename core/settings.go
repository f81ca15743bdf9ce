package core

// This file holds the lint and format settings an editor sends (the LSP
// "wfl" configuration section) and layers them over the `.wflcfg` files.
//
// Precedence, from strongest to weakest:
//
//  1. the client's own keys (max_line_length, … or their camelCase forms);
//  2. the nearest `.wflcfg`;
//  3. the client's defaults-like keys: the WFL VS Code extension's
//     `format.indentSize`. VS Code reports a setting's default exactly like a
//     value the user chose, so an editor-wide default must not override a
//     project's file;
//  4. the global configuration file;
//  5. the built-in defaults.
//
// Settings are registered per workspace folder (or for every document when
// dir is empty) by the front door that received them; [ConfigFor] consults
// the registration of the innermost folder holding the document.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"wfl-lsp/lang/config"
)

// Settings are a client's overrides of the `.wflcfg` keys, as `.wflcfg`
// lines (so they are validated exactly as a file is). The zero value
// overrides nothing.
type Settings struct {
	Over  string // `key = value` lines that override every file
	Under string // `key = value` lines that only a nearest .wflcfg overrides

	// Strict publishes the reference's diagnostics only: none of the
	// semantic and type findings while a statement does not parse (the
	// "strictDiagnostics" key; see Snapshot.Tolerant).
	Strict bool
}

// IsZero reports whether s overrides nothing.
func (s Settings) IsZero() bool { return s.Over == "" && s.Under == "" && !s.Strict }

// TolerantFor reports whether the diagnostics of the document at uri are
// published tolerant (Snapshot.Tolerant): unless its settings are strict.
func TolerantFor(uri URI) bool { return !settingsFor(uri.Path()).Strict }

// settingKeys maps the accepted names of the "wfl" section to `.wflcfg` keys.
var settingKeys = map[string]string{
	"max_line_length":         "max_line_length",
	"maxLineLength":           "max_line_length",
	"max_nesting_depth":       "max_nesting_depth",
	"maxNestingDepth":         "max_nesting_depth",
	"indent_size":             "indent_size",
	"indentSize":              "indent_size",
	"snake_case_variables":    "snake_case_variables",
	"snakeCaseVariables":      "snake_case_variables",
	"trailing_whitespace":     "trailing_whitespace",
	"trailingWhitespace":      "trailing_whitespace",
	"consistent_keyword_case": "consistent_keyword_case",
	"consistentKeywordCase":   "consistent_keyword_case",
}

// ParseSettings reads the value of a client's "wfl" configuration section (a
// JSON object; null or absent means no settings). Keys it does not know
// (the extension's serverPath, cli, …) are ignored; a known key with a value
// of the wrong kind, or out of range, is returned as a problem and ignored.
// The extension's `format.maxLineLength` is not read: it is the width of the
// extension's own formatter (default 80), not WFL's LINT-LENGTH threshold.
func ParseSettings(raw json.RawMessage) (Settings, []error) {
	var s Settings
	var problems []error
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	var section map[string]json.RawMessage
	if err := json.Unmarshal(raw, &section); err != nil {
		return s, []error{fmt.Errorf("wfl settings: want an object: %v", err)}
	}
	var over, under strings.Builder
	add := func(b *strings.Builder, name, key string, v json.RawMessage) {
		value, err := settingValue(v)
		if err != nil {
			problems = append(problems, fmt.Errorf("wfl settings: %s: %v", name, err))
			return
		}
		if value == "" {
			return // null: not set
		}
		line := key + " = " + value + "\n"
		if _, errs := config.Parse(config.Default(), line); len(errs) > 0 {
			problems = append(problems, fmt.Errorf("wfl settings: %s: %s", name, errs[0].Msg))
			return
		}
		b.WriteString(line)
	}
	names := make([]string, 0, len(section))
	for name := range section {
		names = append(names, name)
	}
	sort.Strings(names) // deterministic: a later snake_case line wins over camelCase
	for _, name := range names {
		if key, ok := settingKeys[name]; ok {
			add(&over, name, key, section[name])
		}
	}
	for _, name := range []string{"strictDiagnostics", "strict_diagnostics"} { // the snake_case one wins, as above
		if v, ok := section[name]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, &s.Strict); err != nil {
				problems = append(problems, fmt.Errorf("wfl settings: %s: want true or false, found %s", name, v))
			}
		}
	}
	if f, ok := section["format"]; ok && string(f) != "null" {
		var format map[string]json.RawMessage
		if json.Unmarshal(f, &format) == nil {
			if v, ok := format["indentSize"]; ok {
				add(&under, "format.indentSize", "indent_size", v)
			}
		}
	}
	s.Over, s.Under = over.String(), under.String()
	return s, problems
}

// settingValue renders a JSON scalar as a `.wflcfg` value; "" for null.
func settingValue(v json.RawMessage) (string, error) {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return "", err
	}
	switch x := x.(type) {
	case nil:
		return "", nil
	case bool:
		return strconv.FormatBool(x), nil
	case float64:
		if x != float64(int64(x)) {
			return "", fmt.Errorf("want a whole number, found %v", x)
		}
		return strconv.FormatInt(int64(x), 10), nil
	case string:
		if s := strings.TrimSpace(x); s != "" && !strings.ContainsAny(s, "\r\n") {
			return s, nil
		}
		return "", fmt.Errorf("want a value, found %q", x)
	}
	return "", fmt.Errorf("want a number, a boolean or a string, found %s", v)
}

// registry holds the settings of every folder, newest registration last.
var registry struct {
	mu      sync.RWMutex
	entries []*settingsEntry
}

type settingsEntry struct {
	dir string // absolute folder, or "" for every document
	s   Settings
}

// SetSettings installs s for the documents under the folder dir (every
// document when dir is empty), replacing what an earlier call with the same
// returned handle installed. It returns the function that removes them; a
// session calls it when it ends. When folders nest, the innermost holding a
// document wins; for the same folder, the newest registration.
func SetSettings(dir string, s Settings) (remove func()) {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	e := &settingsEntry{dir: dir, s: s}
	registry.mu.Lock()
	registry.entries = append(registry.entries, e)
	registry.mu.Unlock()
	return func() {
		registry.mu.Lock()
		defer registry.mu.Unlock()
		for i, x := range registry.entries {
			if x == e {
				registry.entries = append(registry.entries[:i:i], registry.entries[i+1:]...)
				return
			}
		}
	}
}

// settingsFor returns the settings in force for a document at path ("" for
// a document that is not a file: only settings for every document apply).
func settingsFor(path string) Settings {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	var best *settingsEntry
	for _, e := range registry.entries {
		if !within(path, e.dir) {
			continue
		}
		if best == nil || len(e.dir) >= len(best.dir) {
			best = e
		}
	}
	if best == nil {
		return Settings{}
	}
	return best.s
}

// within reports whether path lies in the folder dir ("" holds everything).
func within(path, dir string) bool {
	if dir == "" {
		return true
	}
	if path == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
