package lsp

// This file keeps the index of the *.wfl files under the workspace folders,
// for workspace/symbol: built in the background after initialized, kept
// current by workspace/didChangeWatchedFiles (the server asks the client to
// watch **/*.wfl when the client can register watchers). Open documents are
// answered from their current snapshot instead of the disk.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// maxWorkspaceSymbols bounds one workspace/symbol answer, maxIndexedFiles
// the index (a workspace folder may be a whole home directory).
const (
	maxWorkspaceSymbols = 500
	maxIndexedFiles     = 10000
)

// wsIndex is the declarations of the workspace's files on disk.
type wsIndex struct {
	mu    sync.Mutex
	files map[uri.URI]indexedFile

	walks int           // the walks of the workspace's folders under way (guarded by mu)
	done  chan struct{} // closed when the last of them ends
}

// walking counts a walk in; the function it returns counts it out.
func (ix *wsIndex) walking() (end func()) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.walks == 0 {
		ix.done = make(chan struct{})
	}
	ix.walks++
	return func() {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		if ix.walks--; ix.walks == 0 {
			close(ix.done)
		}
	}
}

// complete waits until no walk is under way, for what must see every file
// of the workspace (the includes a rename changes); it fails when ctx ends
// first.
func (ix *wsIndex) complete(ctx context.Context) error {
	ix.mu.Lock()
	done := ix.done
	walking := ix.walks > 0
	ix.mu.Unlock()
	if !walking {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type indexedFile struct {
	lines    *token.Lines
	syms     []presentation.WorkspaceSymbol
	includes []string // the files it includes
}

func (ix *wsIndex) put(u uri.URI, f indexedFile) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.files == nil {
		ix.files = make(map[uri.URI]indexedFile)
	}
	ix.files[u] = f
}

func (ix *wsIndex) remove(u uri.URI) {
	ix.mu.Lock()
	delete(ix.files, u)
	ix.mu.Unlock()
}

// removeUnder forgets the files under the folder dir, except those under
// one of keep (folders can nest).
func (ix *wsIndex) removeUnder(dir string, keep []string) {
	under := func(path, dir string) bool {
		rel, err := filepath.Rel(dir, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for u := range ix.files {
		path := core.URI(u).Path()
		if !under(path, dir) {
			continue
		}
		kept := false
		for _, k := range keep {
			kept = kept || under(path, k)
		}
		if !kept {
			delete(ix.files, u)
		}
	}
}

// includersOnDisk returns the indexed files that include the file at path,
// directly or through other indexed files.
func (s *server) includersOnDisk(path string) []string {
	includedBy := map[string][]string{}
	s.index.mu.Lock()
	for u, f := range s.index.files {
		for _, inc := range f.includes {
			includedBy[inc] = append(includedBy[inc], core.URI(u).Path())
		}
	}
	s.index.mu.Unlock()
	var out []string
	seen := map[string]bool{path: true}
	for queue := []string{path}; len(queue) > 0; queue = queue[1:] {
		for _, p := range includedBy[queue[0]] {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
				queue = append(queue, p)
			}
		}
	}
	return out
}

// indexFile reads and indexes one file (a regular file of bounded size,
// core.FileAccess).
func indexFile(path string) (indexedFile, error) {
	b, err := core.AnyFile().ReadFile(path)
	if err != nil {
		return indexedFile{}, err
	}
	a := core.NewSnapshot(core.FileURI(path), 0, string(b)).Analysis()
	return indexedFile{lines: a.Lines, syms: presentation.FlatSymbols(a), includes: a.Includes(path)}, nil
}

// startIndexing walks the workspace folders in the background (counted in
// at once: a request read after it waits for the walk where it must).
func (s *server) startIndexing(roots []string) {
	end := s.index.walking()
	go func() {
		defer end()
		s.indexWorkspace(roots)
	}()
}

// indexWorkspace walks the workspace folders, reporting progress to
// clients that show it.
func (s *server) indexWorkspace(roots []string) {
	done := s.progress("Indexing WFL files")
	n := 0
	for _, root := range roots {
		// Named pipes, devices, sockets and links to them are skipped.
		err := core.AnyFile().WFLFiles(root, func(p string, err error) bool {
			if s.ctx.Err() != nil || n >= maxIndexedFiles {
				return false
			}
			if err != nil {
				s.log.Debug("folder not indexed", "path", p, "err", err)
				return true
			}
			f, err := indexFile(p)
			if err != nil {
				s.log.Debug("not indexed", "path", p, "err", err)
				return true
			}
			s.index.put(uri.File(p), f)
			n++
			return true
		})
		if err != nil {
			s.log.Debug("workspace folder not indexed", "err", err)
		}
	}
	msg := fmt.Sprintf("wfl-lsp: indexed %d WFL files", n)
	done(msg)
	s.log.Info(msg)
	s.conn.Notify(s.ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeInfo, Message: msg})
}

// progress starts a work-done progress report if the client shows them, and
// returns the function that ends it.
func (s *server) progress(title string) func(message string) {
	if !s.session.Load().caps.workDoneProgress {
		return func(string) {}
	}
	token := protocol.String("wfl-lsp/" + strconv.FormatInt(time.Now().UnixNano(), 36))
	if _, err := s.conn.Call(s.ctx, protocol.MethodWindowWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: token}, nil); err != nil {
		s.log.Debug("progress not created", "err", err)
		return func(string) {}
	}
	report := func(v map[string]any) {
		b, _ := json.Marshal(v)
		s.conn.Notify(s.ctx, protocol.MethodProgress, &protocol.ProgressParams{Token: token, Value: protocol.LSPAny(b)})
	}
	report(map[string]any{"kind": "begin", "title": title})
	return func(message string) { report(map[string]any{"kind": "end", "message": message}) }
}

// watchFiles asks the client to report changes to WFL files and to the
// configuration files.
func (s *server) watchFiles() {
	opts, _ := marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
		Watchers: []protocol.FileSystemWatcher{
			{GlobPattern: protocol.Pattern("**/*.wfl")},
			{GlobPattern: protocol.Pattern("**/" + core.ConfigFileName)},
		},
	})
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "wfl-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: protocol.LSPAny(opts),
	}}}
	if _, err := s.conn.Call(s.ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.log.Warn("file watching not registered", "err", err)
	}
}

func (s *server) didChangeWatchedFiles(params jsonrpc2.RawMessage) error {
	var p protocol.DidChangeWatchedFilesParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	for _, ch := range p.Changes {
		path := core.URI(ch.URI).Path()
		if filepath.Base(path) == core.ConfigFileName {
			core.ForgetConfig() // the next analysis reads the files again
			continue
		}
		if path == "" || !strings.HasSuffix(path, ".wfl") {
			continue
		}
		if ch.Type == protocol.FileChangeTypeDeleted {
			s.index.remove(ch.URI)
			continue
		}
		if f, err := indexFile(path); err == nil {
			s.index.put(ch.URI, f)
		} else {
			s.index.remove(ch.URI)
		}
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	for _, ch := range p.Changes {
		if u := core.URI(ch.URI); strings.HasSuffix(u.Path(), ".wfl") {
			if _, open := s.ws.Snapshot(u); !open {
				s.refreshIncluders(u, nil) // an included file on the disk changed
			}
		}
	}
	return nil
}

// didChangeWorkspaceFolders indexes added folders in the background and
// forgets the files of removed ones; the folders also scope workspace
// settings (config.go).
func (s *server) didChangeWorkspaceFolders(params jsonrpc2.RawMessage) error {
	var p protocol.DidChangeWorkspaceFoldersParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	paths := func(fs []protocol.WorkspaceFolder) []string {
		var out []string
		for _, f := range fs {
			if path := core.URI(f.URI).Path(); path != "" {
				out = append(out, filepath.Clean(path))
			}
		}
		return out
	}
	added, removed := paths(p.Event.Added), paths(p.Event.Removed)
	old := s.session.Load()
	sess := *old
	sess.roots = nil
	for _, r := range old.roots {
		if !slices.Contains(removed, filepath.Clean(r)) {
			sess.roots = append(sess.roots, r)
		}
	}
	for _, a := range added {
		if !slices.Contains(sess.roots, a) {
			sess.roots = append(sess.roots, a)
		}
	}
	s.session.Store(&sess)
	for _, r := range removed {
		s.index.removeUnder(r, sess.roots)
	}
	if len(added) > 0 {
		s.startIndexing(added)
	}
	return nil
}

type symbolHit struct {
	score int
	info  protocol.SymbolInformation
}

// symbolQuery is what workspace/symbol's params must be: an object (null
// params are no query; an object without its query asks for every
// symbol, as an empty one does).
var symbolQuery = shape{want: "an object with query"}

func workspaceSymbol(s *server, params jsonrpc2.RawMessage) (work, error) {
	var p protocol.WorkspaceSymbolParams
	if err := symbolQuery.decode(params, &p); err != nil {
		return nil, err
	}
	enc := s.session.Load().enc
	open := map[uri.URI]*core.Snapshot{}
	for _, snap := range s.ws.Snapshots() {
		open[uri.URI(snap.URI)] = snap
	}
	return func(ctx context.Context) (any, error) {
		var hits []symbolHit
		add := func(u uri.URI, m mapper, syms []presentation.WorkspaceSymbol) {
			for _, sym := range syms {
				score, ok := presentation.FuzzyMatch(p.Query, sym.Name)
				if !ok {
					continue
				}
				info := protocol.SymbolInformation{Location: protocol.Location{URI: u, Range: m.rng(sym.Span)}}
				info.Name, info.Kind = sym.Name, outlineKinds[sym.Kind]
				if sym.Container != "" {
					c := sym.Container
					info.ContainerName = &c
				}
				hits = append(hits, symbolHit{score, info})
			}
		}
		for u, snap := range open {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			d := doc{snap: snap, enc: enc}
			a, m := d.analysis()
			add(s.spelled(u), m, presentation.FlatSymbols(a))
		}
		s.index.mu.Lock()
		files := make(map[uri.URI]indexedFile, len(s.index.files))
		for u, f := range s.index.files {
			files[u] = f
		}
		s.index.mu.Unlock()
		for u, f := range files {
			if _, isOpen := open[u]; !isOpen {
				add(u, diskMapper(f.lines, enc), f.syms)
			}
		}
		sort.Slice(hits, func(i, j int) bool {
			if hits[i].score != hits[j].score {
				return hits[i].score > hits[j].score
			}
			if hits[i].info.Name != hits[j].info.Name {
				return hits[i].info.Name < hits[j].info.Name
			}
			return hits[i].info.Location.URI < hits[j].info.Location.URI
		})
		if len(hits) > maxWorkspaceSymbols {
			hits = hits[:maxWorkspaceSymbols]
		}
		out := make(protocol.SymbolInformationSlice, len(hits))
		for i, h := range hits {
			out[i] = h.info
		}
		return out, nil
	}, nil
}
