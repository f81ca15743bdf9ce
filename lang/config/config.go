// Package config reads WFL's `.wflcfg` files: plain `key = value` lines that
// configure, among runtime settings, the linter and the formatter.
//
// Start with [Parse]: it layers the keys of one file's text over a base
// [Config] (usually [Default], or the result of parsing the global file) and
// returns every malformed line as an [*Error] that names the line and the key.
// Parsing is pure; finding the files (the nearest `.wflcfg` walking up from a
// script, then the global file) is I/O and lives in package core.
//
// Format, as the reference reads it: one `key = value` a line, split on the
// first `=`, both sides trimmed; blank lines and lines whose first non-blank
// character is `#` are ignored. Booleans are `true` or `false`. Unknown keys
// and invalid values are reported and otherwise ignored: the value in force
// stays what it was.
package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Config holds the settings the linter and the formatter use. The zero value
// is not meaningful; start from [Default].
type Config struct {
	MaxLineLength         int  // max_line_length: LINT-LENGTH threshold in bytes
	MaxNestingDepth       int  // max_nesting_depth: LINT-COMPLEX threshold
	IndentSize            int  // indent_size: spaces per block level (formatter and LINT-INDENT)
	SnakeCaseVariables    bool // snake_case_variables: LINT-NAME on or off
	TrailingWhitespace    bool // trailing_whitespace: true allows it (LINT-WHITESPACE off)
	ConsistentKeywordCase bool // consistent_keyword_case: LINT-KEYWORD on or off
}

// Default returns the reference's defaults.
func Default() Config {
	return Config{
		MaxLineLength:         100,
		MaxNestingDepth:       5,
		IndentSize:            4,
		SnakeCaseVariables:    true,
		TrailingWhitespace:    false,
		ConsistentKeywordCase: true,
	}
}

// An Error is one problem in a configuration file. Unknown keys are errors
// too, with Unknown set: callers usually show those as warnings.
type Error struct {
	Line    int    // 1-based line number
	Key     string // the key as written, or "" for a line without one
	Msg     string
	Unknown bool // the key is not a WFL configuration key
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Key, e.Msg)
}

// Bounds of the integer keys: values outside are reported and ignored.
const (
	minLineLength = 20
	maxLineLength = 10000
	maxNesting    = 100
	maxIndent     = 16
)

// Parse reads the text of one configuration file over base and returns the
// result and the problems found, in line order. It never fails as a whole.
func Parse(base Config, text string) (Config, []*Error) {
	c := base
	var errs []*Error
	text = strings.TrimPrefix(text, "\uFEFF")
	for i, line := range splitLines(text) {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			errs = append(errs, &Error{Line: n, Msg: fmt.Sprintf("expected `key = value`, found %q", line)})
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if key == "" {
			errs = append(errs, &Error{Line: n, Msg: "missing key before `=`"})
			continue
		}
		var err string
		switch key {
		case "max_line_length":
			err = setInt(&c.MaxLineLength, value, minLineLength, maxLineLength)
		case "max_nesting_depth":
			err = setInt(&c.MaxNestingDepth, value, 1, maxNesting)
		case "indent_size":
			err = setInt(&c.IndentSize, value, 1, maxIndent)
		case "snake_case_variables":
			err = setBool(&c.SnakeCaseVariables, value)
		case "trailing_whitespace":
			err = setBool(&c.TrailingWhitespace, value)
		case "consistent_keyword_case":
			err = setBool(&c.ConsistentKeywordCase, value)
		default:
			if !runtimeKey(key) {
				errs = append(errs, &Error{Line: n, Key: key, Msg: "unknown key (ignored)", Unknown: true})
			}
			continue
		}
		if err != "" {
			errs = append(errs, &Error{Line: n, Key: key, Msg: err})
		}
	}
	return c, errs
}

func setInt(dst *int, value string, lo, hi int) string {
	v, err := strconv.Atoi(value)
	if err != nil {
		return fmt.Sprintf("expected a whole number, found %q (value ignored)", value)
	}
	if v < lo || v > hi {
		return fmt.Sprintf("%d is out of range %d..%d (value ignored)", v, lo, hi)
	}
	*dst = v
	return ""
}

func setBool(dst *bool, value string) string {
	switch strings.ToLower(value) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return fmt.Sprintf("expected true or false, found %q (value ignored)", value)
	}
	return ""
}

// splitLines splits on "\n", "\r\n" and a lone "\r".
func splitLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// runtimeKeys are the reference's configuration keys that do not concern
// the linter or the formatter; they are accepted and not interpreted here.
var runtimeKeys = makeSet(
	"timeout_seconds", "logging_enabled", "debug_report_enabled", "log_level",
	"execution_logging", "verbose_execution", "log_loop_iterations", "log_throttle_factor",
	"allow_shell_execution", "shell_execution_mode", "allowed_shell_commands",
	"warn_on_shell_execution", "max_concurrent_processes", "max_buffer_size_bytes",
	"kill_on_shutdown", "web_server_bind_address", "web_server_tls_cert_file",
	"web_server_tls_key_file", "web_server_max_body_size", "web_server_request_queue_bound",
	"web_server_max_response_size", "web_server_response_timeout_seconds", "max_operations",
	"max_call_depth", "max_import_depth", "max_execute_file_depth", "max_pattern_steps",
	"max_pattern_states", "max_source_size", "max_file_read_size",
	"outbound_stream_max_seconds",
)

func makeSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// runtimeKey reports whether key is a known runtime key. Families the
// reference extends over time (web sockets, subprocess limits) are matched
// by prefix so that a newer file is not flagged key by key.
func runtimeKey(key string) bool {
	return runtimeKeys[key] || strings.HasPrefix(key, "web_socket_") ||
		strings.HasPrefix(key, "web_server_") || strings.HasPrefix(key, "subprocess_")
}
