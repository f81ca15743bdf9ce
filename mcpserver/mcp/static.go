package mcp

// This file builds the answers that never change while the process lives:
// server info, the initialize and server/discover results, and every page
// of the tool, prompt, resource and template lists, for each revision. They
// are serialized once (the lists on first use of each revision) and served
// from bytes.

import (
	"encoding/base64"
	"strconv"
	"strings"
	"sync"
)

type staticAnswers struct {
	serverInfo map[string][]byte // revision -> Implementation JSON
	initialize map[string][]byte // negotiated revision -> initialize result
	discover   []byte            // complete server/discover result
	lists      map[string]*list  // "tools", "prompts", "resources", "resourceTemplates"
}

// A list is one list method's pages, per revision, each a complete result.
// A revision's pages are serialized the first time a client asks for them,
// so that start-up stays short.
type list struct {
	key       string
	gen       func(v string) []any // the items as revision v shows them
	byVersion map[string]*pageSet  // one per supported revision; read-only after New
}

type pageSet struct {
	once  sync.Once
	pages [][]byte // modern ones already completed
	err   error
}

// Info names a server in serverInfo, and tells a client's model how to use
// it. Title appears from revision 2025-06-18 on, Description and
// WebsiteURL from 2025-11-25 on; empty fields are left out.
type Info struct {
	Name, Title, Description, WebsiteURL string
	Instructions                         string // the initialize and server/discover results' instructions
}

func (s *Server) serverInfoFor(v string) map[string]any {
	in := s.opts.Info
	info := map[string]any{"name": in.Name, "version": s.opts.Version}
	add := func(key, val string) {
		if val != "" {
			info[key] = val
		}
	}
	if atLeast(v, "2025-06-18") {
		add("title", in.Title)
	}
	if atLeast(v, "2025-11-25") {
		add("description", in.Description)
		add("websiteUrl", in.WebsiteURL)
	}
	return info
}

// withInstructions adds the server's instructions to a result, when it has some.
func (s *Server) withInstructions(m map[string]any) map[string]any {
	if s.opts.Info.Instructions != "" {
		m["instructions"] = s.opts.Info.Instructions
	}
	return m
}

func capabilitiesFor(v string) map[string]any {
	caps := map[string]any{
		"tools":     map[string]any{"listChanged": false},
		"resources": map[string]any{"subscribe": true, "listChanged": false},
		"prompts":   map[string]any{"listChanged": false},
		"logging":   map[string]any{},
	}
	if atLeast(v, "2025-03-26") {
		caps["completions"] = map[string]any{}
	}
	return caps
}

func (s *Server) buildStatic() (*staticAnswers, error) {
	st := &staticAnswers{
		serverInfo: map[string][]byte{},
		initialize: map[string][]byte{},
		lists:      map[string]*list{},
	}
	s.static = st
	var err error
	for _, v := range supportedVersions {
		if st.serverInfo[v], err = marshal(s.serverInfoFor(v)); err != nil {
			return nil, err
		}
	}
	for _, v := range legacyVersions {
		st.initialize[v], err = marshal(s.withInstructions(map[string]any{
			"protocolVersion": v,
			"capabilities":    capabilitiesFor(v),
			"serverInfo":      s.serverInfoFor(v),
		}))
		if err != nil {
			return nil, err
		}
	}
	disc, err := marshal(s.withInstructions(map[string]any{
		"supportedVersions": supportedVersions,
		"capabilities":      capabilitiesFor(modernVersion),
	}))
	if err != nil {
		return nil, err
	}
	st.discover = s.modernize(disc, hintStatic)

	items := map[string]func(v string) []any{
		"tools":             listingOf(s.prims.Tools, toolListing),
		"prompts":           listingOf(s.prims.Prompts, promptListing),
		"resources":         listingOf(s.prims.Resources, resourceListing),
		"resourceTemplates": listingOf(s.prims.Templates, templateListing),
	}
	for key, gen := range items {
		l := &list{key: key, gen: gen, byVersion: map[string]*pageSet{}}
		for _, v := range supportedVersions {
			l.byVersion[v] = &pageSet{}
		}
		st.lists[key] = l
	}
	return st, nil
}

// listingOf returns the items of a list under a revision: each primitive
// as listing shows it under that revision.
func listingOf[P any](prims []P, listing func(P, string) map[string]any) func(v string) []any {
	return func(v string) []any {
		var out []any
		for _, p := range prims {
			out = append(out, listing(p, v))
		}
		return out
	}
}

// pages returns the pages of list key under revision v.
func (s *Server) pages(key, v string) ([][]byte, error) {
	l := s.static.lists[key]
	ps := l.byVersion[v]
	ps.once.Do(func() { ps.pages, ps.err = s.paginate(key, l.gen(v), v == modernVersion) })
	return ps.pages, ps.err
}

// paginate splits items into pages of PageSize, each a complete result
// object with nextCursor on every page but the last.
func (s *Server) paginate(key string, items []any, modern bool) ([][]byte, error) {
	n := s.opts.PageSize
	var pages [][]byte
	for start := 0; start == 0 || start < len(items); start += n {
		end := min(start+n, len(items))
		page := map[string]any{key: append([]any{}, items[start:end]...)}
		if end < len(items) {
			page["nextCursor"] = makeCursor(key, len(pages)+1)
		}
		b, err := marshal(page)
		if err != nil {
			return nil, err
		}
		if modern {
			b = s.modernize(b, hintStatic)
		}
		pages = append(pages, b)
	}
	return pages, nil
}

// Cursors are opaque to clients: base64url of "<list>:<page>".
func makeCursor(key string, page int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(key + ":" + strconv.Itoa(page)))
}

// readCursor returns the page a cursor names, 0 for none.
func readCursor(key string, params []byte, npages int) (int, *rpcError) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if err := decodeParams(params, &p); err != nil {
		return 0, err
	}
	if p.Cursor == nil {
		return 0, nil
	}
	bad := errInvalidParams("invalid cursor: " + strconv.Quote(*p.Cursor) + " was not given by this server for this list")
	raw, err := base64.RawURLEncoding.DecodeString(*p.Cursor)
	if err != nil {
		return 0, bad
	}
	k, num, ok := strings.Cut(string(raw), ":")
	if !ok || k != key {
		return 0, bad
	}
	page, err := strconv.Atoi(num)
	if err != nil || page < 1 || page >= npages {
		return 0, bad
	}
	return page, nil
}

// servePage answers a list method from its static pages.
func (s *Server) servePage(r *request, key string) (any, *rpcError) {
	v := r.meta.version
	if v == "" {
		v = legacyVersions[0]
	}
	pages, perr := s.pages(key, v)
	if perr != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: serializing " + key + ": " + perr.Error()}
	}
	page, err := readCursor(key, r.params, len(pages))
	if err != nil {
		return nil, err
	}
	return ready(pages[page]), nil
}

func (s *Server) listTools(r *request) (any, *rpcError)     { return s.servePage(r, "tools") }
func (s *Server) listPrompts(r *request) (any, *rpcError)   { return s.servePage(r, "prompts") }
func (s *Server) listResources(r *request) (any, *rpcError) { return s.servePage(r, "resources") }
func (s *Server) listTemplates(r *request) (any, *rpcError) {
	return s.servePage(r, "resourceTemplates")
}
