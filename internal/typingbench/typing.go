// Package typingbench drives a language server, running as a process of its
// own, the way an editor does while someone types, and measures what the
// editor waits for. Each keystroke is a textDocument/didChange (one
// character typed into a line, or deleted again with a backspace, as an
// incremental change), followed at once by what VS Code asks then:
// completion at the cursor, signature help at the cursor (the typing
// happens inside a call's arguments), hover, semantic tokens of the visible
// range and inlay hints of the visible range (60 lines around the cursor),
// and go to definition of the name hovered (what a ctrl-click or a peek
// asks).
// The didChange and the requests are written together, in one write, before
// any answer, as VS Code's providers send them; Options.Sequential writes
// each after the previous one's answer instead. The next keystroke comes when every answer and the
// publishDiagnostics of the keystroke's version have arrived (closed loop,
// as fast as the server goes).
//
// Each request's latency runs from just before its message is written to
// the moment the last byte of its answer is read; the diagnostics' from just
// before the didChange is written to the last byte of the publishDiagnostics
// carrying the new version. The client decodes nothing while it waits: it
// finds ids, methods and versions by scanning the messages, and checks the
// answers (that each said something) after the keystroke's last message.
//
// The same driver measures wfl-lsp (the root package's
// BenchmarkServerTyping) and, from the bench/typing module, gopls on an
// equal Go file. Tests and that module import it; the binary does not.
package typingbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

// Kind is what is measured: one of the requests or the diagnostics.
type Kind int

const (
	Completion Kind = iota
	SignatureHelp
	Hover
	SemanticTokensRange
	InlayHint
	Definition
	Diagnostics
	numKinds
)

// Kinds lists every kind, the requests in the order they are sent, then the
// diagnostics.
var Kinds = []Kind{Completion, SignatureHelp, Hover, SemanticTokensRange, InlayHint, Definition, Diagnostics}

// requests are the kinds sent after each keystroke, in this order.
var allRequests = Kinds[:Diagnostics]

var kindInfo = [numKinds]struct{ name, metric, method string }{
	Completion:          {"completion", "completion", "textDocument/completion"},
	SignatureHelp:       {"signatureHelp", "signature", "textDocument/signatureHelp"},
	Hover:               {"hover", "hover", "textDocument/hover"},
	SemanticTokensRange: {"semanticTokens/range", "semtok-range", "textDocument/semanticTokens/range"},
	InlayHint:           {"inlayHint", "inlay", "textDocument/inlayHint"},
	Definition:          {"definition", "definition", "textDocument/definition"},
	Diagnostics:         {"publishDiagnostics", "diagnostics", "textDocument/publishDiagnostics"},
}

// String returns the kind's name as the tables print it.
func (k Kind) String() string { return kindInfo[k].name }

// Metric returns the kind's name as a benchmark metric's prefix.
func (k Kind) Metric() string { return kindInfo[k].metric }

// VisibleLines is how many lines around the cursor the visible range spans.
const VisibleLines = 60

// A Doc is a document to type into, and where.
type Doc struct {
	Name       string // as the tables name it
	Path       string // its file, absolute, inside the workspace folder given to Run
	LanguageID string
	Text       string
	// At is the cursor's byte offset before the first keystroke. The
	// keystrokes type Typed there one character after another, then delete
	// it again with backspaces, and so on.
	At    int
	Typed string // ASCII
	// Hover is the byte offset hovered (and asked the definition of)
	// after each keystroke; it lies before At, so the typing does not
	// move it.
	Hover int
}

// Lines returns the number of lines of the document.
func (d Doc) Lines() int { return strings.Count(strings.TrimSuffix(d.Text, "\n"), "\n") + 1 }

// Mark returns the byte offset in text of the '|' in marked: marked without
// its '|' is looked for in text, first occurrence.
func Mark(text, marked string) (int, error) {
	before, after, ok := strings.Cut(marked, "|")
	if !ok {
		return 0, fmt.Errorf("%q has no '|'", marked)
	}
	i := strings.Index(text, before+after)
	if i < 0 {
		return 0, fmt.Errorf("%q is not in the document", before+after)
	}
	return i + len(before), nil
}

// NewDoc returns the Doc that types typed at the '|' of cursor and hovers
// the '|' of hover (see Mark).
func NewDoc(name, path, languageID, text, cursor, typed, hover string) (Doc, error) {
	at, err := Mark(text, cursor)
	if err != nil {
		return Doc{}, err
	}
	h, err := Mark(text, hover)
	if err != nil {
		return Doc{}, err
	}
	d := Doc{Name: name, Path: path, LanguageID: languageID, Text: text, At: at, Typed: typed, Hover: h}
	return d, d.check()
}

func (d Doc) check() error {
	switch {
	case d.Typed == "":
		return errors.New("nothing to type")
	case strings.ContainsFunc(d.Typed, func(r rune) bool { return r >= 0x80 || r == '\r' }):
		return fmt.Errorf("typed text %q: ASCII only, lines broken by \\n", d.Typed)
	case d.At < 0 || d.At > len(d.Text), d.Hover < 0 || d.Hover >= d.At:
		return fmt.Errorf("the hover (%d) must come before the cursor (%d), inside the text", d.Hover, d.At)
	case !filepath.IsAbs(d.Path):
		return fmt.Errorf("%s: the path must be absolute", d.Path)
	}
	return nil
}

// URI returns the file: URI of a path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// A Server is the language server to measure.
type Server struct {
	Name string
	// Cmd starts it, speaking LSP on its standard input and output; Run
	// sets those, and Stderr if it is nil (kept to explain a failure).
	Cmd                   *exec.Cmd
	InitializationOptions any
	// Configuration answers each item of a workspace/configuration
	// request (nil: null).
	Configuration any
}

// Options say how long to type and how.
type Options struct {
	Keystrokes int  // measured keystrokes, after one unmeasured round of typing and deleting
	Sequential bool // write each request after the previous one's answer
	// Requests are the requests sent after each keystroke, in this order
	// (nil: all of them, in the order of Kinds). Sending one alone shows
	// what it costs without the others' work on the same cores.
	Requests []Kind
	// AtRest sends the requests without typing: no didChange, so no
	// publishDiagnostics; the floor under the latencies while typing.
	AtRest bool
	// Interval is the least time from one keystroke's didChange to the
	// next's (zero: the next is sent as soon as the last one's answers and
	// publish are in). A person typing fast leaves about 100 ms; the work a
	// server leaves for later (its collector's, above all) then falls
	// between keystrokes, where back to back it falls on the next ones.
	Interval time.Duration
	// PublishWait is how long to wait for the publishDiagnostics of a
	// keystroke after its last answer before counting it missing (a
	// server may publish only when the findings change); default 2s.
	PublishWait time.Duration
	// Timeout fails a keystroke whose answers have not all come; default 60s.
	Timeout time.Duration
	// Measuring, if set, is called when the measured keystrokes begin (a
	// benchmark resets its timer there).
	Measuring func()
}

// A Result is what one run measured.
type Result struct {
	Server     string
	Doc        string
	Lines      int
	Keystrokes int
	Sequential bool
	Stats      [numKinds]Stat
	// Missed counts the keystrokes whose publishDiagnostics did not come
	// within Options.PublishWait of the last answer.
	Missed int
	// Usage is what the server's process used over its life.
	Usage Usage
}

// Stat holds one kind's latencies and the answers' checks.
type Stat struct {
	Samples []time.Duration // sorted once the run is over
	Errors  int             // answers that were errors (ContentModified, cancelled, failed)
	Said    int             // answers that said something (not null, not empty)
}

// Percentile returns the q-quantile (0 ≤ q ≤ 1) of the samples, the
// convention of the repository's other benchmarks: the sample at index
// ⌊(n−1)·q⌋ of the sorted samples.
func (s *Stat) Percentile(q float64) time.Duration {
	if len(s.Samples) == 0 {
		return 0
	}
	return s.Samples[int(float64(len(s.Samples)-1)*q)]
}

// Run starts the server, opens doc (its file must exist on the disk, in
// the workspace folder root), types as Options say and returns what it
// measured. The server is shut down before Run returns.
func Run(srv Server, root string, doc Doc, opt Options) (*Result, error) {
	if err := doc.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", doc.Name, err)
	}
	if opt.PublishWait == 0 {
		opt.PublishWait = 2 * time.Second
	}
	if opt.Timeout == 0 {
		opt.Timeout = 60 * time.Second
	}
	c, err := start(srv)
	if err != nil {
		return nil, err
	}
	res, err := c.run(root, doc, opt)
	if stopErr := c.stop(); err == nil && stopErr != nil {
		err = stopErr
	}
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w%s", srv.Name, doc.Name, err, c.stderr.text())
	}
	res.Usage = usageOf(srv.Cmd.ProcessState)
	return res, nil
}

// client is the editor's end of a server process.
type client struct {
	srv    Server
	in     io.WriteCloser
	msgs   chan message
	stderr *tail
	nextID int
	done   chan error // the process's exit
	// held, when not nil, gathers the frames written until flush writes
	// them at once.
	held []byte
}

func start(srv Server) (*client, error) {
	c := &client{srv: srv, msgs: make(chan message, 64), stderr: &tail{}, done: make(chan error, 1)}
	cmd := srv.Cmd
	if cmd.Stderr == nil {
		cmd.Stderr = c.stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", srv.Name, err)
	}
	c.in = in
	go readMessages(out, c.msgs)
	go func() { c.done <- cmd.Wait() }()
	return c, nil
}

func (c *client) write(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if c.held != nil {
		c.held = append(c.held, frame(body)...)
		return nil
	}
	_, err = c.in.Write(frame(body))
	return err
}

// hold makes write gather the frames until flush.
func (c *client) hold() { c.held = make([]byte, 0, 4<<10) }

// flush writes the gathered frames in one write and stops gathering.
func (c *client) flush() error {
	b := c.held
	c.held = nil
	_, err := c.in.Write(b)
	return err
}

func (c *client) notify(method string, params any) error {
	return c.write(map[string]any{"method": method, "params": params})
}

// request writes a request and returns its id.
func (c *client) request(method string, params any) (int, error) {
	c.nextID++
	return c.nextID, c.write(map[string]any{"id": c.nextID, "method": method, "params": params})
}

// next returns the server's next message that is not a request to the
// client (those it answers), or an error at timeout or when the stream ends.
func (c *client) next(timeout <-chan time.Time) (message, error) {
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return message{}, errors.New("the server's output ended")
			}
			if m.err != nil {
				return message{}, m.err
			}
			if m.id != nil && m.method != "" {
				if err := c.answer(m); err != nil {
					return message{}, err
				}
				continue
			}
			return m, nil
		case <-timeout:
			return message{}, errTimeout
		}
	}
}

var errTimeout = errors.New("timed out")

// answer answers a request of the server: with the configuration for
// workspace/configuration, with null for everything else (progress tokens,
// registrations), as a client that accepts it.
func (c *client) answer(m message) error {
	var result any
	if m.method == "workspace/configuration" {
		var p struct{ Items []json.RawMessage }
		json.Unmarshal(m.params, &p)
		items := make([]any, len(p.Items))
		for i := range items {
			items[i] = c.srv.Configuration
		}
		result = items
	}
	return c.write(map[string]any{"id": json.RawMessage(m.id), "result": result})
}

// await returns the answer to request id, skipping notifications.
func (c *client) await(id int, timeout time.Duration) (message, error) {
	t := time.After(timeout)
	for {
		m, err := c.next(t)
		if err != nil {
			return m, err
		}
		if m.method == "" && string(m.id) == strconv.Itoa(id) {
			return m, nil
		}
	}
}

func (c *client) stop() error {
	var err error
	if id, werr := c.request("shutdown", nil); werr == nil {
		if m, aerr := c.await(id, 10*time.Second); aerr != nil {
			err = fmt.Errorf("shutdown: %w", aerr)
		} else if m.error != nil {
			err = fmt.Errorf("shutdown: %s", m.error)
		}
		c.notify("exit", nil)
	}
	if cerr := c.close(); err == nil && cerr != nil {
		err = fmt.Errorf("after shutdown and exit: %w", cerr)
	}
	return err
}

// close closes the process's input, lets the reader reach the end of its
// output, and waits for it to exit (whatever its status), killing it after
// 10 seconds: then it fails.
func (c *client) close() error {
	c.in.Close()
	go func() {
		for range c.msgs {
		}
	}()
	select {
	case <-c.done:
		return nil
	case <-time.After(10 * time.Second):
		c.srv.Cmd.Process.Kill()
		<-c.done
		return fmt.Errorf("%s did not exit", c.srv.Name)
	}
}

// capabilities are the client capabilities sent: what VS Code says about
// the requests measured, UTF-16 positions only.
var capabilities = map[string]any{
	"general": map[string]any{"positionEncodings": []string{"utf-16"}},
	"window":  map[string]any{"workDoneProgress": false},
	"workspace": map[string]any{
		"workspaceFolders": true,
		"configuration":    false,
	},
	"textDocument": map[string]any{
		"synchronization": map[string]any{"dynamicRegistration": false, "didSave": true, "willSave": false},
		"completion": map[string]any{
			"contextSupport": true,
			"completionItem": map[string]any{
				"snippetSupport":          true,
				"commitCharactersSupport": true,
				"documentationFormat":     []string{"markdown", "plaintext"},
				"deprecatedSupport":       true,
				"preselectSupport":        true,
				"insertReplaceSupport":    true,
				"labelDetailsSupport":     true,
				"resolveSupport":          map[string]any{"properties": []string{"documentation", "detail", "additionalTextEdits"}},
				"tagSupport":              map[string]any{"valueSet": []int{1}},
			},
		},
		"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"signatureHelp": map[string]any{
			"contextSupport": true,
			"signatureInformation": map[string]any{
				"documentationFormat":    []string{"markdown", "plaintext"},
				"parameterInformation":   map[string]any{"labelOffsetSupport": true},
				"activeParameterSupport": true,
			},
		},
		"semanticTokens": map[string]any{
			"requests": map[string]any{"range": true, "full": map[string]any{"delta": true}},
			"tokenTypes": []string{"namespace", "type", "class", "enum", "interface", "struct", "typeParameter",
				"parameter", "variable", "property", "enumMember", "event", "function", "method", "macro",
				"keyword", "modifier", "comment", "string", "number", "regexp", "operator", "decorator"},
			"tokenModifiers": []string{"declaration", "definition", "readonly", "static", "deprecated",
				"abstract", "async", "modification", "documentation", "defaultLibrary"},
			"formats":                 []string{"relative"},
			"overlappingTokenSupport": false,
			"multilineTokenSupport":   false,
		},
		"inlayHint": map[string]any{},
		"publishDiagnostics": map[string]any{
			"relatedInformation":     true,
			"versionSupport":         true,
			"tagSupport":             map[string]any{"valueSet": []int{1, 2}},
			"codeDescriptionSupport": true,
			"dataSupport":            true,
		},
	},
}

// typist holds the document's state as the keystrokes change it.
type typist struct {
	doc        Doc
	uri        string
	line, col0 int            // the cursor's line and its UTF-16 column before typing
	typed      int            // characters of doc.Typed in the document now
	cursorLine int            // the cursor's line now
	cursorCol  int            // the cursor's UTF-16 column now
	hover      map[string]any // the position hovered
	visible    map[string]any // the range of the visible lines
	version    int
	keystroke  int
	change     map[string]any // the last keystroke's change
}

func newTypist(doc Doc) *typist {
	t := &typist{doc: doc, uri: URI(doc.Path), version: 1}
	lineStart := strings.LastIndexByte(doc.Text[:doc.At], '\n') + 1
	t.line = strings.Count(doc.Text[:lineStart], "\n")
	t.col0 = utf16Len(doc.Text[lineStart:doc.At])
	hs := strings.LastIndexByte(doc.Text[:doc.Hover], '\n') + 1
	t.hover = pos(strings.Count(doc.Text[:hs], "\n"), utf16Len(doc.Text[hs:doc.Hover]))
	last := strings.Count(doc.Text, "\n")
	t.visible = map[string]any{
		"start": pos(max(0, t.line-VisibleLines/2), 0),
		"end":   pos(min(last, t.line+VisibleLines/2), 0),
	}
	t.cursorLine, t.cursorCol = t.line, t.col0
	return t
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func pos(line, col int) map[string]any { return map[string]any{"line": line, "character": col} }

// step makes the next keystroke's change: the next character of Typed (a
// line break is Enter), or a backspace once it is all typed, until it is
// all deleted.
func (t *typist) step() {
	n := len(t.doc.Typed)
	p := t.keystroke % (2 * n)
	t.keystroke++
	t.version++
	if p < n { // type Typed[p]
		at := t.at(p)
		t.change = map[string]any{"range": map[string]any{"start": at, "end": at}, "text": t.doc.Typed[p : p+1]}
		t.typed = p + 1
	} else { // backspace over Typed[j]
		j := 2*n - 1 - p
		t.change = map[string]any{"range": map[string]any{"start": t.at(j), "end": t.at(j + 1)}, "text": ""}
		t.typed = j
	}
	c := t.at(t.typed)
	t.cursorLine, t.cursorCol = c["line"].(int), c["character"].(int)
}

// at returns the position of the cursor once the first i characters of
// Typed are typed.
func (t *typist) at(i int) map[string]any {
	typed := t.doc.Typed[:i]
	nl := strings.LastIndexByte(typed, '\n')
	if nl < 0 {
		return pos(t.line, t.col0+len(typed))
	}
	return pos(t.line+strings.Count(typed, "\n"), len(typed)-nl-1)
}

// params returns the params of a request of kind k at the current cursor.
func (t *typist) params(k Kind) any {
	td := map[string]any{"uri": t.uri}
	cursor := pos(t.cursorLine, t.cursorCol)
	switch k {
	case Completion:
		return map[string]any{"textDocument": td, "position": cursor, "context": map[string]any{"triggerKind": 1}}
	case SignatureHelp:
		return map[string]any{"textDocument": td, "position": cursor, "context": map[string]any{"triggerKind": 1, "isRetrigger": false}}
	case Hover, Definition:
		return map[string]any{"textDocument": td, "position": t.hover}
	case SemanticTokensRange, InlayHint:
		return map[string]any{"textDocument": td, "range": t.visible}
	}
	panic("no params for " + k.String())
}

// said reports whether an answer of kind k says something.
func said(k Kind, result []byte) bool {
	switch k {
	case Completion:
		if v := bytes.TrimSpace(result); len(v) > 0 && v[0] == '{' {
			return nonEmpty(member(result, "items"))
		}
		return nonEmpty(result)
	case SignatureHelp:
		return nonEmpty(member(result, "signatures"))
	case Hover:
		return nonEmpty(member(result, "contents"))
	case SemanticTokensRange:
		return nonEmpty(member(result, "data"))
	}
	return nonEmpty(result)
}

func (c *client) run(root string, doc Doc, opt Options) (*Result, error) {
	id, err := c.request("initialize", map[string]any{
		"processId":             os.Getpid(),
		"clientInfo":            map[string]any{"name": "typingbench"},
		"rootUri":               URI(root),
		"rootPath":              root,
		"workspaceFolders":      []any{map[string]any{"uri": URI(root), "name": filepath.Base(root)}},
		"capabilities":          capabilities,
		"initializationOptions": c.srv.InitializationOptions,
	})
	if err != nil {
		return nil, err
	}
	m, err := c.await(id, opt.Timeout)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if m.error != nil {
		return nil, fmt.Errorf("initialize: %s", m.error)
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		return nil, err
	}
	t := newTypist(doc)
	if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": t.uri, "languageId": doc.LanguageID, "version": t.version, "text": doc.Text}}); err != nil {
		return nil, err
	}
	res := &Result{Server: c.srv.Name, Doc: doc.Name, Lines: doc.Lines(), Keystrokes: opt.Keystrokes, Sequential: opt.Sequential}
	// The requests once on the opened text (the server has loaded it when
	// they are answered), then a round of typing and deleting, unmeasured.
	if err := c.keystroke(t, nil, opt, nil); err != nil {
		return nil, fmt.Errorf("the requests on the opened document: %w", err)
	}
	warm := 2 * len(doc.Typed)
	var began time.Time
	for k := 0; k < warm+opt.Keystrokes; k++ {
		if k == warm && opt.Measuring != nil {
			opt.Measuring()
		}
		if rest := opt.Interval - time.Since(began); rest > 0 {
			time.Sleep(rest)
		}
		began = time.Now()
		change := map[string]any(nil)
		if !opt.AtRest {
			t.step()
			change = t.change
		}
		rec := res
		if k < warm {
			rec = nil
		}
		if err := c.keystroke(t, change, opt, rec); err != nil {
			return nil, fmt.Errorf("keystroke %d (version %d): %w", k+1-warm, t.version, err)
		}
	}
	for k := range res.Stats {
		slices.Sort(res.Stats[k].Samples)
	}
	return res, nil
}

// keystroke sends change (none: the requests only), the requests, and reads
// until every answer and the change's publishDiagnostics are in, recording
// them in res if it is not nil. Unless opt.Sequential, the change and the
// requests are encoded first and written in one write, stamped just before
// it: on cores it shares with the server, the client would otherwise be
// measuring its own encoding, and its turns on a core the server is
// already busy on, between one request and the next.
func (c *client) keystroke(t *typist, change map[string]any, opt Options, res *Result) error {
	requests := opt.Requests
	if requests == nil {
		requests = allRequests
	}
	var (
		sent    [numKinds]time.Time
		ids     [numKinds]int
		answers [numKinds]message
		lat     [numKinds]time.Duration
	)
	if !opt.Sequential {
		c.hold()
	}
	start := time.Now()
	if change != nil {
		err := c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": t.uri, "version": t.version},
			"contentChanges": []any{change},
		})
		if err != nil {
			return err
		}
	}
	send := func(k Kind) error {
		sent[k] = time.Now()
		var err error
		ids[k], err = c.request(kindInfo[k].method, t.params(k))
		return err
	}
	next := 0 // the next request to send
	for ; next < len(requests) && (next == 0 || !opt.Sequential); next++ {
		if err := send(requests[next]); err != nil {
			return err
		}
	}
	if c.held != nil {
		now := time.Now()
		start = now
		for _, k := range requests {
			sent[k] = now
		}
		if err := c.flush(); err != nil {
			return err
		}
	}
	pending, published, missed := len(requests), change == nil, false
	deadline := time.After(opt.Timeout)
	var publishWait <-chan time.Time
	for pending > 0 || !published {
		timeout := deadline
		if pending == 0 {
			if publishWait == nil {
				publishWait = time.After(opt.PublishWait)
			}
			timeout = publishWait
		}
		m, err := c.next(timeout)
		if err == errTimeout && pending == 0 {
			missed = true
			break
		}
		if err != nil {
			var waiting []string
			for _, k := range requests {
				if ids[k] != 0 && answers[k].at.IsZero() {
					waiting = append(waiting, k.String())
				}
			}
			if !published {
				waiting = append(waiting, Diagnostics.String())
			}
			return fmt.Errorf("waiting for %s: %w", strings.Join(waiting, ", "), err)
		}
		switch {
		case m.method == kindInfo[Diagnostics].method:
			if published {
				continue
			}
			uri, version := publishedVersion(m.params)
			if string(version) == strconv.Itoa(t.version) && samePath(uri, t.uri) {
				published, lat[Diagnostics] = true, m.at.Sub(start)
			}
		case m.method == "" && m.id != nil:
			id, _ := strconv.Atoi(string(m.id))
			for _, k := range requests {
				if ids[k] == id && answers[k].at.IsZero() {
					answers[k], lat[k] = m, m.at.Sub(sent[k])
					pending--
					if opt.Sequential && next < len(requests) {
						if err := send(requests[next]); err != nil {
							return err
						}
						next++
					}
				}
			}
		}
	}
	if res == nil {
		return nil
	}
	for _, k := range requests {
		s := &res.Stats[k]
		s.Samples = append(s.Samples, lat[k])
		if answers[k].error != nil {
			s.Errors++
		} else if said(k, answers[k].result) {
			s.Said++
		}
	}
	if missed {
		res.Missed++
	} else {
		res.Stats[Diagnostics].Samples = append(res.Stats[Diagnostics].Samples, lat[Diagnostics])
	}
	return nil
}

// samePath reports whether the JSON string uri names the same file as want.
func samePath(uri []byte, want string) bool {
	s, ok := unquote(uri)
	if !ok {
		var v string
		if json.Unmarshal(uri, &v) != nil {
			return false
		}
		s = v
	}
	if s == want {
		return true
	}
	a, err1 := url.Parse(s)
	b, err2 := url.Parse(want)
	return err1 == nil && err2 == nil && a.Path == b.Path
}

// tail keeps the last bytes a process wrote to its standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 8 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == 0 {
		return ""
	}
	return "\nthe server's standard error ends with:\n" + string(t.buf)
}
