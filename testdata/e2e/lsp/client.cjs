// End-to-end test of wfl-lsp under a real LSP client library (the one VS
// Code's extensions use): vscode-jsonrpc + vscode-languageserver-protocol.
//
//   NODE_PATH=.ci/npm/node_modules node testdata/e2e/lsp/client.cjs BIN testdata/e2e/lsp/demo.wfl
//
// It starts the server, checks the lifecycle and text synchronization, and
// calls every method the server advertises in its capabilities: a capability
// with no exercise below fails the run, so the list cannot fall behind.
// Then, on scratch documents, what a user sees while typing a program:
// diagnostics of the other lines while one is unfinished (and the
// strictDiagnostics setting), completion by grammar position, signature help
// on an empty argument, quick fixes applied and the result checked again;
// and an action typed keystroke by keystroke into the middle of
// scores.wfl, its `end action` never typed: completion of its parameter,
// hover below it, the outline and the diagnostics.
// Prints one "ok"/"FAIL" line per check and exits 1 on any failure.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol');

const [server, file] = process.argv.slice(2);
if (!server || !file) {
  console.error('usage: client.cjs SERVER FILE.wfl');
  process.exit(2);
}
let failures = 0, checks = 0;
function check(cond, what, detail) {
  checks++;
  if (cond) console.log('ok   ' + what);
  else { console.log('FAIL ' + what + (detail === undefined ? '' : ': ' + JSON.stringify(detail))); failures++; }
  return cond;
}

// posOf returns the LSP position (UTF-16, which is what JavaScript strings
// count in) of the nth occurrence of needle in text, plus offset characters.
function posOf(text, needle, nth = 0, offset = 0) {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`${JSON.stringify(needle)} #${nth} not in the text`);
  }
  i += offset;
  const before = text.slice(0, i);
  const line = before.split(/\r\n|\r|\n/).length - 1;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line, character: i - lineStart };
}

const within = (ms, p, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('timeout: ' + what)), ms))]);

(async () => {
  const abs = path.resolve(file);
  const uri = 'file://' + abs;
  let text = fs.readFileSync(abs, 'utf8');

  const child = cp.spawn(server, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise(r => child.on('exit', (code, sig) => r({ code, sig })));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

  // Every publishDiagnostics, and waiters for the ones a test expects.
  const published = [];
  let waiters = [];
  conn.onNotification(lsp.PublishDiagnosticsNotification.type, p => {
    published.push(p);
    waiters = waiters.filter(w => !(w.pred(p) && (w.resolve(p), true)));
  });
  const diagnostics = (pred, what) => {
    const seen = published.find(pred);
    if (seen) return Promise.resolve(seen);
    return within(10000, new Promise(resolve => waiters.push({ pred, resolve })), what);
  };
  conn.onRequest(lsp.ConfigurationRequest.type, p => p.items.map(() => null));
  conn.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => null);
  conn.onRequest(lsp.RegistrationRequest.type, () => null);
  conn.onNotification(lsp.LogMessageNotification.type, () => {});
  conn.listen();

  const t0 = Date.now();
  const init = await conn.sendRequest(lsp.InitializeRequest.type, {
    processId: process.pid,
    clientInfo: { name: 'wfl-e2e', version: '1' },
    rootUri: 'file://' + path.dirname(abs),
    workspaceFolders: [{ uri: 'file://' + path.dirname(abs), name: 'e2e' }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        foldingRange: { lineFoldingOnly: false },
        codeAction: {
          dataSupport: true, resolveSupport: { properties: ['edit'] }, isPreferredSupport: true,
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } },
        },
        signatureHelp: { signatureInformation: { parameterInformation: { labelOffsetSupport: true }, activeParameterSupport: true } },
        semanticTokens: {
          requests: { full: { delta: true }, range: true },
          tokenTypes: [], tokenModifiers: [], formats: ['relative'],
        },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] } },
      },
    },
    trace: 'off',
  });
  const caps = init.capabilities;
  console.log('initialize answered in ' + (Date.now() - t0) + ' ms');
  console.log('capabilities ' + JSON.stringify(caps));
  check(init.serverInfo && init.serverInfo.name === 'wfl-lsp', 'serverInfo.name is wfl-lsp', init.serverInfo);
  check(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16', 'utf-16 when only utf-16 is offered', caps.positionEncoding);
  await conn.sendNotification(lsp.InitializedNotification.type, {});

  // Text synchronization and pushed diagnostics.
  await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type,
    { textDocument: { uri, languageId: 'wfl', version: 1, text } });
  const d1 = await diagnostics(p => p.uri === uri && p.version === 1, 'diagnostics for version 1');
  console.log('diagnostics v1 ' + JSON.stringify(d1.diagnostics));
  check(d1.diagnostics.length > 0, 'the undefined name is reported');
  const mystery = posOf(text, 'mystery guest');
  const onMystery = d1.diagnostics.find(d => d.range.start.line === mystery.line);
  if (check(onMystery !== undefined, 'a diagnostic on the line of the undefined name', d1.diagnostics)) {
    check(onMystery.source === 'wfl', 'diagnostic source is wfl', onMystery.source);
    check(typeof onMystery.code === 'string' && onMystery.code.length > 0, 'diagnostic has a code', onMystery.code);
    check(onMystery.severity === 1, 'it is an error', onMystery.severity);
    check(onMystery.range.start.character === mystery.character, 'it starts at the name (UTF-16 column)', onMystery.range);
  }

  // An incremental edit after astral characters: replace "welcome back" by
  // "hello again" on the line after the emoji; columns are UTF-16.
  const at = posOf(text, 'welcome back');
  await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 'welcome back'.length } }, text: 'hello again' }],
  });
  text = text.replace('welcome back', 'hello again');
  // Then fix the error by declaring the name first (an edit at 0:0).
  await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 3 },
    contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'store mystery guest as "Ann"\n' }],
  });
  text = 'store mystery guest as "Ann"\n' + text;
  const d3 = await diagnostics(p => p.uri === uri && p.version === 3, 'diagnostics for version 3');
  console.log('diagnostics v3 ' + JSON.stringify(d3.diagnostics));
  check(!d3.diagnostics.some(d => d.severity === 1), 'no error once the name is declared', d3.diagnostics);
  const versions = published.filter(p => p.uri === uri).map(p => p.version);
  check(versions.every((v, i) => i === 0 || v > versions[i - 1]), 'diagnostics versions only increase', versions);

  // Scratch documents next to the demo, opened from memory.
  let scratch = 0;
  const openScratch = async (name, body) => {
    const u = 'file://' + path.join(path.dirname(abs), `${name}-${++scratch}.wfl`);
    await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: u, languageId: 'wfl', version: 1, text: body } });
    return u;
  };

  // Every advertised method.
  const td = { uri };
  const greetUse = posOf(text, 'greet', 1, 1);      // inside "greet" in the call
  const nameUse = posOf(text, 'first name', 1, 2);  // inside the first use of "first name"
  const nameDecl = posOf(text, 'first name', 0);
  const exercises = {
    positionEncoding: null, // not a method
    textDocumentSync: null, // exercised above
    hoverProvider: async () => {
      const h = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: td, position: nameUse });
      check(h && JSON.stringify(h.contents).includes('first name'), 'hover names the variable', h);
      check(h && h.range && h.range.start.line === nameUse.line, 'hover has a range on the word', h && h.range);
      const a = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: td, position: greetUse });
      check(a && JSON.stringify(a.contents).includes('Says hello'), 'hover shows the action\'s doc comment', a);
    },
    definitionProvider: async () => {
      const d = await conn.sendRequest(lsp.DefinitionRequest.type, { textDocument: td, position: nameUse });
      const loc = Array.isArray(d) ? d[0] : d;
      check(loc && loc.range.start.line === nameDecl.line && loc.range.start.character === nameDecl.character, 'definition of a use is its declaration', d);
    },
    referencesProvider: async () => {
      const r = await conn.sendRequest(lsp.ReferencesRequest.type, { textDocument: td, position: nameUse, context: { includeDeclaration: true } });
      check(Array.isArray(r) && r.length === 4, 'four references to "first name" with the declaration', r);
    },
    documentHighlightProvider: async () => {
      const r = await conn.sendRequest(lsp.DocumentHighlightRequest.type, { textDocument: td, position: nameUse });
      check(Array.isArray(r) && r.length === 4, 'four highlights of "first name"', r);
    },
    documentSymbolProvider: async () => {
      const r = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: td });
      const names = (r || []).map(s => s.name);
      check(names.includes('greet') && names.includes('first name'), 'document symbols list the action and the variable', names);
      const greet = (r || []).find(s => s.name === 'greet');
      check(greet && Array.isArray(greet.children) && greet.children.some(c => c.name === 'name'), 'the action\'s parameter is its child', greet);
    },
    foldingRangeProvider: async () => {
      const r = await conn.sendRequest(lsp.FoldingRangeRequest.type, { textDocument: td });
      const action = posOf(text, 'define action');
      check(Array.isArray(r) && r.some(f => f.startLine === action.line), 'the action folds', r);
    },
    selectionRangeProvider: async () => {
      const r = await conn.sendRequest(lsp.SelectionRangeRequest.type, { textDocument: td, positions: [nameUse] });
      let depth = 0;
      for (let s = r && r[0]; s; s = s.parent) depth++;
      check(depth >= 3, 'selection ranges grow from the name outwards', r);
    },
    semanticTokensProvider: async () => {
      const legend = caps.semanticTokensProvider.legend;
      const full = await conn.sendRequest(lsp.SemanticTokensRequest.type, { textDocument: td });
      check(full && full.data.length > 0 && full.data.length % 5 === 0, 'semantic tokens (full)', full && full.data.length);
      // Decode and find the keyword token "define" and the variable "first name" (one token, two words).
      const toks = [];
      let line = 0, ch = 0;
      for (let i = 0; i < full.data.length; i += 5) {
        line += full.data[i];
        ch = full.data[i] === 0 ? ch + full.data[i + 1] : full.data[i + 1];
        toks.push({ line, ch, len: full.data[i + 2], type: legend.tokenTypes[full.data[i + 3]] });
      }
      const t = toks.find(k => k.line === nameDecl.line && k.ch === nameDecl.character);
      check(t && t.len === 'first name'.length, 'the multi-word name is one token', t);
      if (caps.semanticTokensProvider.range) {
        const r = await conn.sendRequest(lsp.SemanticTokensRangeRequest.type, { textDocument: td, range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } } });
        check(r && r.data.length > 0 && r.data.length < full.data.length, 'semantic tokens (range)', r && r.data.length);
      }
      const delta = caps.semanticTokensProvider.full && caps.semanticTokensProvider.full.delta;
      if (delta) {
        const d = await conn.sendRequest(lsp.SemanticTokensDeltaRequest.type, { textDocument: td, previousResultId: full.resultId });
        check(d && (Array.isArray(d.edits) || Array.isArray(d.data)), 'semantic tokens (delta)', d);
      }
    },
    declarationProvider: async () => {
      const d = await conn.sendRequest(lsp.DeclarationRequest.type, { textDocument: td, position: nameUse });
      const loc = Array.isArray(d) ? d[0] : d;
      check(loc && loc.range.start.line === nameDecl.line, 'declaration of a use is its declaration', d);
    },
    documentFormattingProvider: async () => {
      const u = await openScratch('fmt', 'check if 1 is 1:\ndisplay "x"\nend check\n');
      const e = await conn.sendRequest(lsp.DocumentFormattingRequest.type, { textDocument: { uri: u }, options: { tabSize: 4, insertSpaces: true } });
      check(Array.isArray(e) && e.some(x => x.newText.includes('    display "x"')), 'formatting indents the block', e);
    },
    documentRangeFormattingProvider: async () => {
      const u = await openScratch('rfmt', 'display 1\ncheck if 1 is 1:\ndisplay "x"\nend check\n');
      const e = await conn.sendRequest(lsp.DocumentRangeFormattingRequest.type,
        { textDocument: { uri: u }, range: { start: { line: 1, character: 0 }, end: { line: 3, character: 9 } }, options: { tabSize: 4, insertSpaces: true } });
      check(Array.isArray(e) && e.length > 0 && e.every(x => x.range.start.line >= 1), 'range formatting edits only the range', e);
    },
    codeActionProvider: async () => {
      const lazy = caps.codeActionProvider.resolveProvider === true;
      const withEdit = async a => (a && !a.edit && lazy) ? conn.sendRequest(lsp.CodeActionResolveRequest.type, a) : a;
      const r = await conn.sendRequest(lsp.CodeActionRequest.type,
        { textDocument: td, range: { start: nameDecl, end: nameDecl }, context: { diagnostics: [] } });
      const fix = await withEdit(Array.isArray(r) && r.find(a => a.kind === 'quickfix'));
      check(fix && fix.edit && fix.edit.changes[uri].length > 0, 'a quick fix for the snake_case warning' + (lazy ? ' (edit resolved lazily)' : ''), fix);
      const u = await openScratch('fixall', 'check if 1 is 1:\n        display "x"\nend check\n');
      const f = await conn.sendRequest(lsp.CodeActionRequest.type,
        { textDocument: { uri: u }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] } });
      const all = await withEdit(Array.isArray(f) && f.length === 1 && f[0]);
      check(all && all.kind === 'source.fixAll' && all.edit.changes[u][0].newText.includes('    display "x"'), 'source.fixAll for bad indentation', f);
    },
    renameProvider: async () => {
      const pr = await conn.sendRequest(lsp.PrepareRenameRequest.type, { textDocument: td, position: nameUse });
      check(pr && pr.placeholder === 'first name', 'prepareRename gives the multi-word name', pr);
      const e = await conn.sendRequest(lsp.RenameRequest.type, { textDocument: td, position: nameUse, newName: 'given name' });
      const edits = e && e.changes && e.changes[uri];
      check(Array.isArray(edits) && edits.length === 4 && edits.every(x => x.newText === 'given name'), 'rename edits the four places', e);
      const bad = await conn.sendRequest(lsp.RenameRequest.type, { textDocument: td, position: nameUse, newName: 'store' }).then(() => 'ok', err => err.code);
      check(bad === -32803, 'renaming to a keyword is refused', bad);
    },
    documentLinkProvider: async () => {
      const u = await openScratch('links', 'load module from "demo.wfl"\n');
      const l = await conn.sendRequest(lsp.DocumentLinkRequest.type, { textDocument: { uri: u } });
      check(Array.isArray(l) && l.length === 1 && l[0].target === uri, 'the loaded module is a link to its file', l);
    },
    inlayHintProvider: async () => {
      const h = await conn.sendRequest(lsp.InlayHintRequest.type,
        { textDocument: td, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
      check(Array.isArray(h) && h.some(x => x.label === 'name:' && x.kind === 2), 'a parameter-name hint on the call', h);
    },
    completionProvider: async () => {
      const u = await openScratch('complete', 'store first name as "Al"\nstore first total as 1\ndisplay first na');
      const r = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: u }, position: { line: 2, character: 16 } });
      const items = Array.isArray(r) ? r : (r && r.items) || [];
      const item = items.find(i => i.label === 'first name');
      check(item && !items.some(i => i.label === 'first total'), 'completion filters by the multi-word prefix', items.map(i => i.label));
      check(item && item.textEdit && item.textEdit.range.start.character === 8, 'the completion replaces the whole prefix', item);
      const b = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: td, position: { line: 3, character: 0 } }).then(r => Array.isArray(r) ? r : r.items);
      check(b.some(i => i.label === 'check if'), 'statement keywords at the start of a line', b.length);
      if (caps.completionProvider.resolveProvider) {
        const e = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: u }, position: { line: 2, character: 8 } }).then(r => Array.isArray(r) ? r : r.items);
        const len = e.find(i => i.label === 'length');
        const res = len && await conn.sendRequest(lsp.CompletionResolveRequest.type, len);
        check(res && JSON.stringify(res.documentation || '').includes('length('), 'completionItem/resolve documents a builtin', res);
      }
    },
    signatureHelpProvider: async () => {
      const at = posOf(text, 'call greet with first name', 0, 'call greet with '.length + 1);
      const r = await conn.sendRequest(lsp.SignatureHelpRequest.type, { textDocument: td, position: at });
      check(r && r.signatures.length === 1 && r.signatures[0].label.includes('greet with name') && r.activeParameter === 0, 'signature help in an action call', r);
    },
    callHierarchyProvider: async () => {
      const items = await conn.sendRequest(lsp.CallHierarchyPrepareRequest.type, { textDocument: td, position: greetUse });
      check(Array.isArray(items) && items.length === 1 && items[0].name === 'greet', 'call hierarchy item for the action', items);
      const inc = items && await conn.sendRequest(lsp.CallHierarchyIncomingCallsRequest.type, { item: items[0] });
      check(Array.isArray(inc) && inc.length === 1 && inc[0].fromRanges.length === 1 && inc[0].fromRanges[0].start.line === greetUse.line, 'greet is called once, from the top level', inc);
      const out = items && await conn.sendRequest(lsp.CallHierarchyOutgoingCallsRequest.type, { item: items[0] });
      check(Array.isArray(out) && out.length === 0, 'greet calls no action', out);
    },
    typeDefinitionProvider: async () => {
      const u = await openScratch('typedef', 'create container Pet:\n    property name: Text\nend\ncreate new Pet as rex:\n    name is "Rex"\nend\ndisplay "😀 " with rex\n');
      const at = { line: 6, character: 'display "😀 " with r'.length };
      const d = await conn.sendRequest(lsp.TypeDefinitionRequest.type, { textDocument: { uri: u }, position: at });
      const loc = Array.isArray(d) ? d[0] : d;
      check(loc && loc.uri === u && loc.range.start.line === 0 && loc.range.start.character === 17, 'type definition of an instance is its container', d);
    },
    implementationProvider: async () => {
      const u = await openScratch('impl', 'create interface Shape:\n    requires action area\nend\ncreate container Square implements Shape:\n    action area:\n        display 1\n    end\nend\n');
      const d = await conn.sendRequest(lsp.ImplementationRequest.type, { textDocument: { uri: u }, position: { line: 0, character: 18 } });
      check(Array.isArray(d) && d.length === 1 && d[0].range.start.line === 3, 'the implementation of an interface is the container implementing it', d);
    },
    typeHierarchyProvider: async () => {
      const u = await openScratch('hier', 'create container Animal:\n    property name: Text\nend\ncreate container Dog extends Animal:\n    property owner: Text\nend\n');
      const items = await conn.sendRequest(lsp.TypeHierarchyPrepareRequest.type, { textDocument: { uri: u }, position: { line: 3, character: 18 } });
      check(Array.isArray(items) && items.length === 1 && items[0].name === 'Dog', 'type hierarchy item for the container', items);
      const sup = items && await conn.sendRequest(lsp.TypeHierarchySupertypesRequest.type, { item: items[0] });
      check(Array.isArray(sup) && sup.length === 1 && sup[0].name === 'Animal', 'its supertype is the container it extends', sup);
      const sub = sup && sup.length && await conn.sendRequest(lsp.TypeHierarchySubtypesRequest.type, { item: sup[0] });
      check(Array.isArray(sub) && sub.length === 1 && sub[0].name === 'Dog', 'and the subtype of that is Dog', sub);
    },
    codeLensProvider: async () => {
      const lenses = await conn.sendRequest(lsp.CodeLensRequest.type, { textDocument: td });
      const greetDecl = posOf(text, 'greet', 0);
      const onGreet = Array.isArray(lenses) && lenses.find(l => l.range.start.line === greetDecl.line && l.range.start.character === greetDecl.character);
      check(onGreet && !onGreet.command, 'a code lens on the action, without its command until resolved', lenses);
      if (caps.codeLensProvider.resolveProvider && onGreet) {
        const r = await conn.sendRequest(lsp.CodeLensResolveRequest.type, onGreet);
        check(r && r.command && r.command.title === '1 reference', 'codeLens/resolve counts the references', r);
      }
    },
    documentOnTypeFormattingProvider: async () => {
      check(caps.documentOnTypeFormattingProvider.firstTriggerCharacter === '\n', 'on-type formatting is triggered by a line break', caps.documentOnTypeFormattingProvider);
      const u = await openScratch('ontype', 'display "😀"\ncheck if 1 is 1:\n    ');
      const e = await conn.sendRequest(lsp.DocumentOnTypeFormattingRequest.type,
        { textDocument: { uri: u }, position: { line: 2, character: 4 }, ch: '\n', options: { tabSize: 4, insertSpaces: true } });
      check(Array.isArray(e) && e.length === 1 && e[0].newText === '\nend check', 'Enter after an open check if inserts end check', e);
    },
    workspaceSymbolProvider: async () => {
      const r = await conn.sendRequest(lsp.WorkspaceSymbolRequest.type, { query: 'grt' });
      check(Array.isArray(r) && r.some(x => x.name === 'greet' && x.location.uri === uri), 'workspace symbols find the action by a fuzzy query', r);
    },
    workspace: async () => {
      // A folder added while the server runs is indexed for workspace symbols.
      check(caps.workspace.workspaceFolders && caps.workspace.workspaceFolders.changeNotifications === true, 'workspace folder changes are wanted', caps.workspace);
      const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'wfl-folder-'));
      fs.writeFileSync(path.join(dir, 'added.wfl'), 'store zebra total as 1\n');
      await conn.sendNotification(lsp.DidChangeWorkspaceFoldersNotification.type,
        { event: { added: [{ uri: 'file://' + dir, name: 'added' }], removed: [] } });
      let found = false;
      for (let i = 0; i < 50 && !found; i++) {
        const r = await conn.sendRequest(lsp.WorkspaceSymbolRequest.type, { query: 'zebra' });
        found = Array.isArray(r) && r.some(x => x.name === 'zebra total');
        if (!found) await new Promise(res => setTimeout(res, 100));
      }
      check(found, 'a workspace folder added later is indexed');
      await conn.sendNotification(lsp.DidChangeWorkspaceFoldersNotification.type,
        { event: { added: [], removed: [{ uri: 'file://' + dir, name: 'added' }] } });
      const gone = await conn.sendRequest(lsp.WorkspaceSymbolRequest.type, { query: 'zebra' });
      check(Array.isArray(gone) && gone.length === 0, 'a removed workspace folder is forgotten', gone);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    diagnosticProvider: async () => {
      const r = await conn.sendRequest(lsp.DocumentDiagnosticRequest.type, { textDocument: td });
      check(r && r.kind === 'full' && Array.isArray(r.items), 'pull diagnostics', r);
    },
  };
  for (const [cap, value] of Object.entries(caps)) {
    if (value === false || value === null) continue;
    if (!(cap in exercises)) { check(false, `advertised ${cap} is exercised`); continue; }
    if (exercises[cap]) {
      try { await exercises[cap](); } catch (e) { check(false, cap, String(e)); }
    }
  }

  // Typing: what a user sees while writing a program (issue 13), on scratch
  // documents: diagnostics that stay while a line is incomplete, completion
  // that knows the grammar, signature help on an empty argument, quick fixes
  // that fix.
  const offsetAt = (t, p) => {
    let off = 0;
    for (let l = 0; l < p.line; l++) {
      const nl = t.indexOf('\n', off);
      if (nl < 0) throw new Error('line ' + p.line + ' past the end');
      off = nl + 1;
    }
    return off + p.character;
  };
  // applyEdits applies a WorkspaceEdit's edits of one document as a client
  // does: every range refers to the text before the edit.
  const applyEdits = (t, edits) => edits
    .map(e => ({ from: offsetAt(t, e.range.start), to: offsetAt(t, e.range.end), text: e.newText }))
    .sort((a, b) => b.from - a.from)
    .reduce((acc, e) => acc.slice(0, e.from) + e.text + acc.slice(e.to), t);
  const editsOf = (we, u) => {
    if (!we) return undefined;
    if (we.changes && we.changes[u]) return we.changes[u];
    const dc = (we.documentChanges || []).find(c => c.textDocument && c.textDocument.uri === u);
    return dc && dc.edits;
  };
  const show = ds => ds.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${['', 'error', 'warning', 'info', 'hint'][d.severity]} ${d.message}`);
  const errorsOf = p => p.diagnostics.filter(d => d.severity === 1);
  const isParse = d => typeof d.code === 'string' && d.code.startsWith('PARSE-');
  const has = (p, line, re, sev = 1) => p.diagnostics.some(d => d.range.start.line === line - 1 && d.severity === sev && re.test(d.message));
  const versionOf = (u, v) => diagnostics(p => p.uri === u && p.version === v, `diagnostics of ${u} version ${v}`);
  const labels = async (u, t, needle, nth = 0) => {
    const at = posOf(t, needle, nth, needle.length);
    const r = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: u }, position: at });
    return (Array.isArray(r) ? r : (r && r.items) || []).map(i => i.label);
  };
  const sigAt = async (u, t, needle) => {
    const r = await conn.sendRequest(lsp.SignatureHelpRequest.type, { textDocument: { uri: u }, position: posOf(t, needle, 0, needle.length) });
    const sig = r && r.signatures && r.signatures[r.activeSignature || 0];
    if (!sig) return { r };
    const active = sig.activeParameter !== undefined ? sig.activeParameter : r.activeParameter;
    const p = sig.parameters && sig.parameters[active];
    const plabel = p && (Array.isArray(p.label) ? sig.label.slice(p.label[0], p.label[1]) : p.label);
    return { r, label: sig.label, active, plabel };
  };
  const lazyFix = caps.codeActionProvider && caps.codeActionProvider.resolveProvider === true;
  // quickFix asks for the code actions at a diagnostic, as a client does for
  // the lightbulb, and returns those offered with the chosen one resolved.
  const quickFix = async (u, d, title) => {
    const offered = await conn.sendRequest(lsp.CodeActionRequest.type,
      { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d], triggerKind: 1 } }) || [];
    let fix = offered.find(a => a.title === title);
    if (fix && !fix.edit && lazyFix) fix = await conn.sendRequest(lsp.CodeActionResolveRequest.type, fix);
    return { offered, fix };
  };

  // 1. Tolerant diagnostics. A program with a misspelled name...
  async function tolerant() {
    let t = 'store total as 3\ndisplay totl\n';
    const u = await openScratch('typing', t);
    let p = await versionOf(u, 1);
    check(has(p, 2, /^Variable 'totl' is not defined$/), "tolerant: opened, \"Variable 'totl' is not defined\" on line 2", show(p.diagnostics));
    // ...and the user starts a third line, not finished yet: the parse
    // error appears on it and the error on line 2 stays.
    const end = posOf(t, 'totl\n', 0, 5);
    t += 'store z as ';
    await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
      { textDocument: { uri: u, version: 2 }, contentChanges: [{ range: { start: end, end }, text: 'store z as ' }] });
    p = await versionOf(u, 2);
    check(p.diagnostics.some(d => d.range.start.line === 2 && d.severity === 1 && isParse(d)), 'tolerant: typing "store z as " on line 3 shows a parse error on line 3', show(p.diagnostics));
    check(has(p, 2, /^Variable 'totl' is not defined$/), "tolerant: while line 3 does not parse, \"Variable 'totl' is not defined\" stays on line 2", show(p.diagnostics));
    // The strictDiagnostics setting shows only what the reference shows.
    let mark = published.length;
    await conn.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: { wfl: { strictDiagnostics: true } } });
    p = await diagnostics(q => published.indexOf(q) >= mark && q.uri === u, 'diagnostics after strictDiagnostics true');
    check(errorsOf(p).length === 1 && isParse(errorsOf(p)[0]) && errorsOf(p)[0].range.start.line === 2,
      'tolerant: with "wfl.strictDiagnostics": true only the parse error on line 3 is left', show(p.diagnostics));
    mark = published.length;
    await conn.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: { wfl: {} } });
    p = await diagnostics(q => published.indexOf(q) >= mark && q.uri === u, 'diagnostics after strictDiagnostics cleared');
    check(has(p, 2, /^Variable 'totl' is not defined$/), "tolerant: with the setting cleared, the error on line 2 is back", show(p.diagnostics));
    // Finishing the line takes the parse error away; the misspelling stays.
    const eol = posOf(t, 'store z as ', 0, 'store z as '.length);
    t += '1\n';
    await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
      { textDocument: { uri: u, version: 3 }, contentChanges: [{ range: { start: eol, end: eol }, text: '1\n' }] });
    p = await versionOf(u, 3);
    check(!p.diagnostics.some(isParse) && errorsOf(p).length === 1 && has(p, 2, /^Variable 'totl' is not defined$/),
      "tolerant: finishing line 3 (\"store z as 1\") removes the parse error; only the 'totl' error is left", show(p.diagnostics));
  }

  // 2. Quick fixes: the preferred one at an error, applied as the client
  // applies it, fixes the program.
  async function quickFixes() {
    // The misspelling: did you mean 'total'?
    let t = 'store total as 3\ndisplay totl\nstore z as 1\n';
    const u = await openScratch('fix-typo', t);
    let p = await versionOf(u, 1);
    const d = p.diagnostics.find(x => x.severity === 1 && /'totl'/.test(x.message));
    check(d !== undefined && d.range.start.line === 1, "quick fix: \"Variable 'totl' is not defined\" on line 2", show(p.diagnostics));
    const title = "Change 'totl' to 'total'";
    let { offered, fix } = await quickFix(u, d, title);
    check(fix !== undefined && fix.isPreferred === true && fix.kind === 'quickfix',
      `quick fix: "${title}" is offered at the error, marked preferred`, offered.map(a => a.title + (a.isPreferred ? ' (preferred)' : '')));
    let edits = editsOf(fix && fix.edit, u);
    if (check(Array.isArray(edits) && edits.length > 0, 'quick fix: it has an edit of the document' + (lazyFix ? ' (resolved lazily)' : ''), fix)) {
      t = applyEdits(t, edits);
      check(t === 'store total as 3\ndisplay total\nstore z as 1\n', "quick fix applied: line 2 reads \"display total\"", t);
      await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: u, version: 2 }, contentChanges: [{ text: t }] });
      p = await versionOf(u, 2);
      check(errorsOf(p).length === 0, 'quick fix applied: no error is left', show(p.diagnostics));
    }
    // A redeclaration: "store" -> "change", as the message itself says.
    let r = 'store count as 1\nstore count as 2\ndisplay count\n';
    const u2 = await openScratch('redeclare', r);
    p = await versionOf(u2, 1);
    const redecl = p.diagnostics.find(x => x.range.start.line === 1 && x.severity === 1 && /already been defined/.test(x.message));
    check(redecl !== undefined, "quick fix: \"Variable 'count' has already been defined at line 1 ...\" on line 2", show(p.diagnostics));
    if (redecl) {
      const title2 = "Change 'count' instead of declaring it again";
      ({ offered, fix } = await quickFix(u2, redecl, title2));
      check(fix !== undefined && fix.isPreferred === true, `quick fix: "${title2}" is offered, marked preferred`, offered.map(a => a.title));
      edits = editsOf(fix && fix.edit, u2);
      if (check(Array.isArray(edits) && edits.length > 0, 'quick fix: the redeclaration fix has an edit', fix)) {
        r = applyEdits(r, edits);
        check(r === 'store count as 1\nchange count to 2\ndisplay count\n', 'quick fix applied: line 2 reads "change count to 2"', r);
        await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: u2, version: 2 }, contentChanges: [{ text: r }] });
        p = await versionOf(u2, 2);
        check(errorsOf(p).length === 0, 'quick fix applied: the redeclaration error is gone and no other error came', show(p.diagnostics));
      }
    }
  }

  // 3. Completion by grammar position.
  async function grammarCompletion() {
    const c = [
      'create container Pet:',
      '    property name: Text',
      '    ',
      'end container',
      'create container Dog extends Pet:',
      'end container',
      'store first as 1',
      'store z as ',
      'store w as first ',
      'check if first is ',
      'store p as create new ',
      'define action called f with n as ',
    ].join('\n');
    const cu = await openScratch('grammar', c);
    const hasAll = (got, want) => want.every(w => got.includes(w));
    const hasNone = (got, bad) => bad.every(b => !got.includes(b));
    let got = await labels(cu, c, 'store z as ');
    check(hasAll(got, ['first', 'yes', 'nothing', 'length', 'call']) && hasNone(got, ['plus', 'is greater than', 'and', 'store', 'display', 'z']),
      'completion after "store z as ": names, literals, builtins, call; no operator, no statement, not z itself', got.slice(0, 40));
    got = await labels(cu, c, 'store w as first ');
    check(hasAll(got, ['plus', 'minus', 'is greater than', 'and']) && hasNone(got, ['first', 'store', 'length']),
      'completion after an operand ("store w as first "): operators and comparisons, no name', got);
    got = await labels(cu, c, 'check if first is ');
    check(hasAll(got, ['greater than', 'equal to', 'not', 'first']) && !got.some(l => /^is\b/.test(l)),
      'completion after "check if first is ": comparisons that continue "is" (no "is is") and operands', got.slice(0, 30));
    got = await labels(cu, c, 'store p as create new ');
    check(got.length === 2 && hasAll(got, ['Pet', 'Dog']), 'completion after "create new ": the containers only (Dog, Pet)', got.slice(0, 20));
    got = await labels(cu, c, 'define action called f with n as ');
    check(hasAll(got, ['text', 'number', 'list', 'Pet']) && hasNone(got, ['first', 'store', 'plus', 'length']),
      'completion after "as" in parameters: type names and containers only', got);
    const bodyAt = posOf(c, '    property name: Text\n', 0, '    property name: Text\n    '.length);
    const br = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: cu }, position: bodyAt });
    got = (Array.isArray(br) ? br : (br && br.items) || []).map(i => i.label);
    check(hasAll(got, ['property', 'action', 'event']) && hasNone(got, ['store', 'display', 'check if', 'first']),
      'completion in a container body: property, action, event; no statement, no variable', got);
  }

  // 4. Signature help on an empty argument, from the first keystroke.
  async function emptyArgumentSignature() {
    const s = [
      'define action called f with a and b:',
      '    give back a',
      'end action',
      'store s as "hello"',
      'display substring of ',
      'display substring of s and ',
      'call f with "a" and ',
      'display f of "a" and ',
    ].join('\n');
    const su = await openScratch('signature', s);
    const sub = 'substring(text as Text, start as Number, length as Number) -> Text';
    let h = await sigAt(su, s, 'display substring of ');
    check(h.label === sub && h.active === 0 && h.plabel === 'text as Text', `signature help on "display substring of |": ${sub}, parameter 1 "text as Text" active`, h.r);
    h = await sigAt(su, s, 'display substring of s and ');
    check(h.label === sub && h.active === 1 && h.plabel === 'start as Number', 'signature help on "display substring of s and |" (empty argument): parameter 2 "start as Number" active', h.r);
    h = await sigAt(su, s, 'call f with "a" and ');
    check(h.label === 'action f with a and b' && h.active === 1 && h.plabel === 'b', 'signature help on "call f with "a" and |" (empty argument): action f with a and b, parameter b active', h.r);
    h = await sigAt(su, s, 'display f of "a" and ');
    check(h.label === 'action f with a and b' && h.active === 1 && h.plabel === 'b', 'signature help on "display f of "a" and |": the same signature, parameter b active', h.r);
  }

  // 5. A block typed by hand in the middle of a program (issue 27), one
  // didChange a keystroke as an editor sends them, its closers never typed:
  // completion inside the unfinished body offers its parameter and what it
  // stored, and below it hover, the outline and the diagnostics read as they
  // did before the block was typed.
  async function unclosedBlock() {
    const file = path.join(path.dirname(abs), 'scores.wfl');
    const u = 'file://' + file;
    let t = fs.readFileSync(file, 'utf8');
    await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: u, languageId: 'wfl', version: 1, text: t } });
    const opened = await versionOf(u, 1);
    const outline = async () => (await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri: u } })) || [];
    const outlineBefore = (await outline()).map(s => s.name);
    let version = 1;
    let at = posOf(t, 'end action', 0, 'end action'.length); // the end of the first action
    const type = async keys => {
      for (const c of keys) {
        await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
          { textDocument: { uri: u, version: ++version }, contentChanges: [{ range: { start: at, end: at }, text: c }] });
        const off = offsetAt(t, at);
        t = t.slice(0, off) + c + t.slice(off);
        at = c === '\n' ? { line: at.line + 1, character: 0 } : { line: at.line, character: at.character + 1 };
      }
    };
    const complete = async () => {
      const r = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: u }, position: at });
      return (Array.isArray(r) ? r : (r && r.items) || []).map(i => i.label);
    };
    await type('\ndefine action called tally with parameters scores:\n    store total as 0\n    for each s in sc');
    let got = await complete();
    check(got.includes('scores'), 'unfinished block: completion after "for each s in sc" offers the parameter "scores"', got);
    await type('ores:\n        change total to t');
    got = await complete();
    check(got.includes('total'), 'unfinished block: completion after "change total to t" offers "total", which the block stored', got);
    await type('otal plus s');
    const block = ['define action called tally with parameters scores:', '    store total as 0', '    for each s in scores:', '        change total to total plus s'];
    const typed = fs.readFileSync(file, 'utf8').replace('end action\n', 'end action\n' + block.join('\n') + '\n');
    if (!check(t === typed, `unfinished block: ${version - 1} keystrokes typed the block after the first action, no closer`, t)) return;
    const below = posOf(t, 'store best score').line - 1; // the blank line after the block

    const use = posOf(t, 'with best score', 0, 'with be'.length);
    const h = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: u }, position: use });
    const decl = posOf(t, 'store best score').line + 1;
    const hover = h && JSON.stringify(h.contents);
    check(hover && hover.includes('variable best score: Number') && hover.includes(`Declared on line ${decl}.`),
      `unfinished block: hover on "best score" (line ${use.line + 1}) below it shows "variable best score: Number", declared on line ${decl}`, h);

    const syms = await outline();
    const names = syms.map(s => s.name);
    const tally = syms.find(s => s.name === 'tally');
    const next = outlineBefore.indexOf('announce') + 1;
    check(JSON.stringify(names) === JSON.stringify(outlineBefore.slice(0, next).concat('tally', outlineBefore.slice(next))),
      `unfinished block: the outline lists tally after announce, and every symbol it listed before (${outlineBefore.join(', ')})`, names);
    check(tally && tally.range.end.line < below && (tally.children || []).some(c => c.name === 'scores'),
      'unfinished block: tally ends where its body ends, with its parameter "scores"', tally);

    // Below the block: the findings the program had before, on lines moved
    // down by the block's, and the missing closers' errors.
    const p = await versionOf(u, version);
    const closer = d => d.severity === 1 && /^expected 'end (action|for)'/.test(d.message);
    const before = show(opened.diagnostics.filter(d => d.range.start.line >= below - block.length))
      .map(d => d.replace(/^\d+/, n => String(+n + block.length)));
    const after = show(p.diagnostics.filter(d => d.range.start.line >= below && !closer(d)));
    check(p.diagnostics.some(d => closer(d) && /'tally'/.test(d.message)) && after.join('\n') === before.join('\n'),
      `unfinished block: below it, the error of the missing "end action" and what was there before (${before.join('; ')}), nothing else`, show(p.diagnostics));
    await conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri: u } });
  }
  for (const scenario of [tolerant, quickFixes, grammarCompletion, emptyArgumentSignature, unclosedBlock]) {
    try { await scenario(); } catch (e) { check(false, scenario.name, String(e && e.stack || e)); }
  }

  // Client settings, pushed (this client does not answer workspace/configuration
  // requests as a capability): wfl.maxLineLength overrides the .wflcfg and
  // the open documents are published again.
  const hasLength = p => p.diagnostics.some(d => d.code === 'LINT-LENGTH');
  let mark = published.length;
  await conn.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: { wfl: { maxLineLength: 20 } } });
  const tight = await diagnostics(p => published.indexOf(p) >= mark && p.uri === uri && hasLength(p), 'LINT-LENGTH after wfl.maxLineLength 20');
  check(hasLength(tight), 'client settings change the published lint diagnostics');
  mark = published.length;
  await conn.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: { wfl: {} } });
  const loose = await diagnostics(p => published.indexOf(p) >= mark && p.uri === uri, 'diagnostics after the settings were cleared');
  check(!hasLength(loose), 'clearing the settings restores the .wflcfg limits', loose.diagnostics);

  // Protocol errors a client can cause.
  const errCode = p => p.then(() => 'no error', e => e.code);
  check(await errCode(conn.sendRequest('wfl/noSuchMethod', {})) === -32601, 'unknown method: -32601');
  check(await errCode(conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: uri + '.nope' }, position: { line: 0, character: 0 } })) !== 'no error',
    'a request on a document that is not open fails');

  await conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: td });
  await diagnostics(p => p.uri === uri && p.diagnostics.length === 0 && p.version === undefined, 'empty diagnostics after close');
  check(true, 'didClose clears the diagnostics');

  await conn.sendRequest(lsp.ShutdownRequest.type);
  await conn.sendNotification(lsp.ExitNotification.type);
  const ex = await within(5000, exited, 'exit');
  check(ex.code === 0, 'exit code 0 after shutdown and exit', ex);
  conn.dispose();
  console.log(failures === 0 ? `PASS node client (${checks} checks)` : `FAIL node client: ${failures} of ${checks} checks failed`);
  process.exit(failures === 0 ? 0 : 1);
})().catch(e => { console.log('FAIL node client: ' + (e && e.stack || e)); process.exit(1); });
