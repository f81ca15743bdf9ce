package mcpserver

// This file implements resources: the fixed workspace:// resources, the
// templates for file contents and builtin documentation, resources/read,
// and subscriptions (resources/subscribe in the handshake era,
// subscriptions/listen under 2026-07-28) with update notifications found by
// polling what is watched.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wfl-lsp/core"
	"wfl-lsp/lang/builtins"
)

// A resource is one fixed resource.
type resource struct {
	uri, name, title, description, mimeType string
	read                                    func(s *Server, ctx context.Context) (any, error)
}

func (r *resource) listing(v string) map[string]any {
	m := map[string]any{"uri": r.uri, "name": r.name, "description": r.description, "mimeType": r.mimeType}
	if atLeast(v, "2025-06-18") {
		m["title"] = r.title
	}
	return m
}

// A template is a resource template (RFC 6570 level 2).
type template struct {
	uriTemplate, prefix, name, title, description, mimeType string
	variable                                                string // the one variable, after prefix
}

func (t *template) listing(v string) map[string]any {
	m := map[string]any{"uriTemplate": t.uriTemplate, "name": t.name, "description": t.description, "mimeType": t.mimeType}
	if atLeast(v, "2025-06-18") {
		m["title"] = t.title
	}
	return m
}

const (
	fileTemplatePrefix    = "workspace://file/"
	builtinTemplatePrefix = "wfl://builtin/"
)

var templates = []*template{
	{uriTemplate: fileTemplatePrefix + "{+path}", prefix: fileTemplatePrefix, variable: "path",
		name: "wfl-file", title: "WFL source file", mimeType: "text/x-wfl",
		description: "The text of a .wfl file of the workspace; path is relative to the workspace root (file:// URIs inside the root are read too)"},
	{uriTemplate: builtinTemplatePrefix + "{name}", prefix: builtinTemplatePrefix, variable: "name",
		name: "wfl-builtin", title: "WFL builtin documentation", mimeType: "text/markdown",
		description: "Documentation of one builtin function: module, parameters, result and what it does"},
}

var fixedResources = []*resource{
	{uri: "workspace://files", name: "files", title: "WFL files", mimeType: "application/json",
		description: "Every .wfl file of the workspace, recursively (hidden and vendored folders skipped)",
		read: func(s *Server, ctx context.Context) (any, error) {
			type entry struct {
				Path string `json:"path"`
				URI  string `json:"uri"`
				Size int64  `json:"size"`
			}
			out := struct {
				Root  string  `json:"root"`
				Count int     `json:"count"`
				Files []entry `json:"files"`
			}{Root: s.root, Files: []entry{}}
			for _, rel := range s.wflFiles() {
				var size int64
				if fi, err := os.Stat(filepath.Join(s.root, rel)); err == nil {
					size = fi.Size()
				}
				out.Files = append(out.Files, entry{Path: rel, URI: fileTemplatePrefix + rel, Size: size})
			}
			out.Count = len(out.Files)
			return out, nil
		}},
	{uri: "workspace://symbols", name: "symbols", title: "Workspace symbols", mimeType: "application/json",
		description: "Every declaration (actions, containers, variables, constants, …) of every .wfl file of the workspace, with its file, line and column",
		read: func(s *Server, ctx context.Context) (any, error) {
			syms, count, err := s.workspaceSymbols(ctx, "")
			if err != nil {
				return nil, err
			}
			return map[string]any{"symbols": syms, "count": count, "truncated": count > len(syms)}, nil
		}},
	{uri: "workspace://diagnostics", name: "diagnostics", title: "Workspace diagnostics", mimeType: "application/json",
		description: "The diagnostics of every .wfl file of the workspace, with lines, columns, severities and codes",
		read: func(s *Server, ctx context.Context) (any, error) {
			rep, err := s.checkFiles(ctx, s.wflFiles(), false, nil)
			return rep, err
		}},
	{uri: "workspace://config", name: "config", title: "WFL configuration", mimeType: "application/json",
		description: "The lint and format settings in force at the workspace root (defaults, global file, nearest .wflcfg) and any problems in those files",
		read: func(s *Server, ctx context.Context) (any, error) {
			cfg, files, problems := core.LoadConfig(s.root)
			probs := []string{}
			for _, p := range problems {
				probs = append(probs, p.Error())
			}
			if files == nil {
				files = []string{}
			}
			return map[string]any{
				"settings": map[string]any{
					"max_line_length":         cfg.MaxLineLength,
					"max_nesting_depth":       cfg.MaxNestingDepth,
					"indent_size":             cfg.IndentSize,
					"snake_case_variables":    cfg.SnakeCaseVariables,
					"trailing_whitespace":     cfg.TrailingWhitespace,
					"consistent_keyword_case": cfg.ConsistentKeywordCase,
				},
				"files":    files,
				"problems": probs,
			}, nil
		}},
}

// notFound is the error for an unknown resource: -32002 in the handshake
// era, -32602 under 2026-07-28.
func notFound(r *request, uri, why string) *rpcError {
	code := codeResourceNotFound
	if r.meta.modern {
		code = codeInvalidParams
	}
	return &rpcError{Code: code, Message: "Resource not found: " + why, Data: map[string]any{"uri": uri}}
}

// readResource answers resources/read.
func (s *Server) readResource(r *request) (any, *rpcError) {
	var p struct {
		URI *string `json:"uri"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.URI == nil {
		return nil, errInvalidParams(`resources/read: "uri" is required`)
	}
	uri := *p.URI
	text, mime, rerr := s.resourceText(r.ctx, r, uri)
	if rerr != nil {
		return nil, rerr
	}
	content := map[string]any{"uri": uri, "mimeType": mime, "text": text}
	b, err := marshal(map[string]any{"contents": []any{content}})
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
	}
	return withHint{obj: b, hint: hintVolatile}, nil
}

// resourceText reads any resource the server offers.
func (s *Server) resourceText(ctx context.Context, r *request, uri string) (text, mime string, rerr *rpcError) {
	for _, res := range fixedResources {
		if res.uri == uri {
			v, err := res.read(s, ctx)
			if err != nil {
				return "", "", &rpcError{Code: codeInternalError, Message: "Internal error: reading " + uri + ": " + err.Error()}
			}
			b, err := marshal(v)
			if err != nil {
				return "", "", &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
			}
			return string(b), res.mimeType, nil
		}
	}
	switch {
	case strings.HasPrefix(uri, fileTemplatePrefix), strings.HasPrefix(uri, "file:"):
		p, perr := filePathOf(uri)
		if perr != "" {
			return "", "", notFound(r, uri, perr)
		}
		t, _, fe := s.readFile(p)
		if fe != nil {
			return "", "", notFound(r, uri, fe.Message)
		}
		return t, "text/x-wfl", nil
	case strings.HasPrefix(uri, builtinTemplatePrefix):
		name, _ := url.PathUnescape(strings.TrimPrefix(uri, builtinTemplatePrefix))
		b := builtins.Lookup(name)
		if b == nil {
			return "", "", notFound(r, uri, "no builtin is called "+name)
		}
		return builtinMarkdown(b), "text/markdown", nil
	}
	return "", "", notFound(r, uri, "unknown resource "+uri)
}

// filePathOf returns the path a workspace://file/ or file:// URI names.
func filePathOf(uri string) (string, string) {
	if strings.HasPrefix(uri, "file:") {
		return uri, ""
	}
	rel, err := url.PathUnescape(strings.TrimPrefix(uri, fileTemplatePrefix))
	if err != nil || rel == "" {
		return "", "malformed file URI " + uri
	}
	return rel, ""
}

func builtinMarkdown(b *builtins.Builtin) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n%s\n\nModule: %s. Arguments: %s.\n", b.Name, b.Doc, b.Module, b.ArityText())
	if !b.Implemented {
		sb.WriteString("\nReserved: the WFL runtime does not provide this builtin yet.\n")
	}
	if len(b.Signatures) > 0 {
		sb.WriteString("\nSignatures:\n\n")
		for i := range b.Signatures {
			fmt.Fprintf(&sb, "- `%s`\n", b.Label(i))
		}
	}
	return sb.String()
}

// knownResource reports whether uri names something that can be watched.
func (s *Server) knownResource(uri string) bool {
	for _, res := range fixedResources {
		if res.uri == uri {
			return true
		}
	}
	if strings.HasPrefix(uri, fileTemplatePrefix) || strings.HasPrefix(uri, "file:") {
		p, bad := filePathOf(uri)
		if bad != "" {
			return false
		}
		_, _, err := s.resolve(p)
		return err == nil
	}
	if strings.HasPrefix(uri, builtinTemplatePrefix) {
		return builtins.Lookup(strings.TrimPrefix(uri, builtinTemplatePrefix)) != nil
	}
	return false
}

// subscribe answers resources/subscribe (handshake era).
func (s *Server) subscribe(r *request) (any, *rpcError) {
	uri, err := uriParam(r, "resources/subscribe")
	if err != nil {
		return nil, err
	}
	if !s.knownResource(uri) {
		return nil, notFound(r, uri, "cannot subscribe to unknown resource "+uri)
	}
	print := s.fingerprint(uri)
	c := r.c
	c.mu.Lock()
	c.subs[uri] = true
	if _, ok := c.prints[uri]; !ok {
		c.prints[uri] = print
	}
	c.updateWatchLocked()
	c.mu.Unlock()
	return []byte(`{}`), nil
}

// unsubscribe answers resources/unsubscribe.
func (s *Server) unsubscribe(r *request) (any, *rpcError) {
	uri, err := uriParam(r, "resources/unsubscribe")
	if err != nil {
		return nil, err
	}
	c := r.c
	c.mu.Lock()
	delete(c.subs, uri)
	if !c.listenedLocked(uri) {
		delete(c.prints, uri) // a later subscription starts from what it sees then
	}
	c.updateWatchLocked()
	c.mu.Unlock()
	return []byte(`{}`), nil
}

func uriParam(r *request, method string) (string, *rpcError) {
	var p struct {
		URI *string `json:"uri"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return "", err
	}
	if p.URI == nil || *p.URI == "" {
		return "", errInvalidParams(method + `: "uri" is required`)
	}
	return *p.URI, nil
}

// listenState is what one subscriptions/listen request asked for and got.
type listenState struct {
	uris map[string]bool
}

// listen answers subscriptions/listen (2026-07-28): it acknowledges the
// subset it honours and keeps the request open; update notifications carry
// the request's id as the subscription id. The request ends with a result
// when the session ends, or without one when the client cancels it.
func (s *Server) listen(r *request) (any, *rpcError) {
	var p struct {
		Notifications *struct {
			ToolsListChanged      *bool    `json:"toolsListChanged"`
			PromptsListChanged    *bool    `json:"promptsListChanged"`
			ResourcesListChanged  *bool    `json:"resourcesListChanged"`
			ResourceSubscriptions []string `json:"resourceSubscriptions"`
		} `json:"notifications"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, errInvalidParams(`subscriptions/listen: "notifications" is required`)
	}
	n := p.Notifications
	honoured := map[string]any{}
	// The lists never change while the process lives, so a list_changed
	// subscription is honoured trivially: nothing will ever be sent for it.
	for key, v := range map[string]*bool{"toolsListChanged": n.ToolsListChanged, "promptsListChanged": n.PromptsListChanged, "resourcesListChanged": n.ResourcesListChanged} {
		if v != nil && *v {
			honoured[key] = true
		}
	}
	st := &listenState{uris: map[string]bool{}}
	var uris []string
	for _, u := range n.ResourceSubscriptions {
		if s.knownResource(u) && !st.uris[u] {
			st.uris[u] = true
			uris = append(uris, u)
		}
	}
	if n.ResourceSubscriptions != nil {
		honoured["resourceSubscriptions"] = append([]string{}, uris...)
	}
	prints := map[string]string{}
	for _, u := range uris {
		prints[u] = s.fingerprint(u)
	}
	c := r.c
	c.mu.Lock()
	r.listen = st
	c.listens[string(r.id)] = r
	for u, p := range prints {
		if _, ok := c.prints[u]; !ok {
			c.prints[u] = p
		}
	}
	c.updateWatchLocked()
	ack, _ := marshal(map[string]any{
		"_meta":         map[string]any{metaSubscriptionID: json.RawMessage(r.id)},
		"notifications": honoured,
	})
	c.sendFor(r, appendNotification(nil, "notifications/subscriptions/acknowledged", ack))
	c.mu.Unlock()
	return nil, nil
}

// fingerprint summarizes the state of what a resource shows, so a change
// can be noticed: sizes and modification times of the files it reads.
func (s *Server) fingerprint(uri string) string {
	h := sha256.New()
	stat := func(p string) {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		} else {
			fmt.Fprintf(h, "%s missing\n", p)
		}
	}
	switch {
	case uri == "workspace://files" || uri == "workspace://diagnostics" || uri == "workspace://symbols":
		files := s.wflFiles()
		sort.Strings(files)
		for _, f := range files {
			stat(filepath.Join(s.root, f))
		}
	case uri == "workspace://config":
		_, files, _ := core.LoadConfig(s.root)
		for _, f := range files {
			stat(f)
		}
		stat(filepath.Join(s.root, core.ConfigFileName))
	case strings.HasPrefix(uri, fileTemplatePrefix) || strings.HasPrefix(uri, "file:"):
		// One file: its bytes, so that a rewrite of the same size within
		// the file system's timestamp granularity is still noticed.
		p, _ := filePathOf(uri)
		if abs, _, err := s.resolve(p); err == nil {
			stat(abs)
			if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxFileBytes {
				if b, err := os.ReadFile(abs); err == nil {
					h.Write(b)
				}
			}
		} else {
			fmt.Fprintf(h, "unreadable %s\n", err.Kind)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// watcher polls the watched resources of one session.
type watcher struct {
	stop chan struct{}
}

// updateWatchLocked starts or stops the watcher to match what is watched.
// c.mu must be held.
func (c *conn) updateWatchLocked() {
	want := len(c.subs) > 0
	for _, r := range c.listens {
		if len(r.listen.uris) > 0 {
			want = true
		}
	}
	switch {
	case want && c.watch == nil:
		w := &watcher{stop: make(chan struct{})}
		c.watch = w
		go c.poll(w)
	case !want && c.watch != nil:
		close(c.watch.stop)
		c.watch = nil
	}
}

func (c *conn) poll(w *watcher) {
	ticks := c.srv.opts.pollTicks
	if ticks == nil {
		t := time.NewTicker(c.srv.opts.PollInterval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-w.stop:
			return
		case <-ticks:
		}
		c.pollOnce()
		if f := c.srv.opts.polled; f != nil {
			f()
		}
	}
}

// pollOnce compares the fingerprint of every watched resource with the one
// seen before and tells the subscribers of those that changed.
func (c *conn) pollOnce() {
	c.mu.Lock()
	watched := map[string]bool{}
	for u := range c.subs {
		watched[u] = true
	}
	for _, r := range c.listens {
		for u := range r.listen.uris {
			watched[u] = true
		}
	}
	c.mu.Unlock()
	uris := make([]string, 0, len(watched))
	for u := range watched {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		print := c.srv.fingerprint(u)
		c.mu.Lock()
		old, seen := c.prints[u]
		c.prints[u] = print
		if seen && old != print {
			c.resourceUpdatedLocked(u)
		}
		c.mu.Unlock()
	}
}

// listenedLocked reports whether an open listen watches uri. c.mu must be held.
func (c *conn) listenedLocked(uri string) bool {
	for _, r := range c.listens {
		if r.listen.uris[uri] {
			return true
		}
	}
	return false
}

// resourceUpdatedLocked tells every subscriber that uri changed. c.mu must be held.
func (c *conn) resourceUpdatedLocked(uri string) {
	if c.closing {
		return
	}
	if c.subs[uri] {
		b, _ := marshal(map[string]any{"uri": uri})
		c.send(appendNotification(nil, "notifications/resources/updated", b))
	}
	ids := make([]string, 0, len(c.listens))
	for id, r := range c.listens {
		if r.listen.uris[uri] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		b, _ := marshal(map[string]any{"uri": uri, "_meta": map[string]any{metaSubscriptionID: json.RawMessage(id)}})
		c.sendFor(c.listens[id], appendNotification(nil, "notifications/resources/updated", b))
	}
}
