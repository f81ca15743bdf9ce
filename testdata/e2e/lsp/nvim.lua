-- End-to-end test of wfl-lsp under headless Neovim 0.7 (Debian's), with
-- Neovim's built-in LSP client:
--
--   SERVER=BIN nvim --headless --clean -u NONE -c "luafile testdata/e2e/lsp/nvim.lua" testdata/e2e/lsp/demo.wfl
--
-- It attaches the server to the buffer, waits for diagnostics, asks for hover
-- and definition when the server offers them, edits the buffer (Neovim sends
-- the change incrementally). Then, in buffers of its own, it does what a user
-- does while writing a program, by keys typed in insert mode where a user
-- types: an unfinished line keeps the other lines' diagnostics (and the
-- strictDiagnostics setting drops them), completion with <C-x><C-o> offers
-- what the grammar allows, signature help on an empty argument highlights
-- the right parameter, quick fixes chosen from vim.lsp.buf.code_action()
-- fix the buffer, an action typed key by key into the middle of
-- scores.wfl, its `end action` never typed, leaves completion, hover, the
-- outline and the diagnostics right, and a rename of a property declared in
-- an included file, started in the file that includes it, changes every
-- file. At last it stops the server. Prints one "ok"/"FAIL" line a
-- check, then "PASS neovim (N checks)" and exits 0, or exits 1.
--
-- Keys typed with nvim_feedkeys are only processed by Neovim's main loop, so
-- the script runs as a coroutine that yields to the main loop while it waits
-- (settle), instead of blocking in vim.wait.
local out = io.stdout
local function log(...)
  out:write(table.concat(vim.tbl_map(tostring, { ... }), " "), "\n")
  out:flush()
end

local checks, failures = 0, 0
local function check(ok, what, detail)
  checks = checks + 1
  if ok then
    log("ok   " .. what)
  else
    failures = failures + 1
    log("FAIL " .. what .. (detail ~= nil and (": " .. (vim.inspect(detail):gsub("%s+", " "))) or ""))
  end
  return ok
end

local co
local function resume()
  local ok, err = coroutine.resume(co)
  if not ok then
    log("FAIL the script stopped: " .. debug.traceback(co, tostring(err)))
    vim.cmd("cquit 1")
  end
end

-- settle lets Neovim's main loop run (typed keys, server messages, timers)
-- until pred() returns a true value or ms (default 5000) have passed, and
-- returns pred()'s last value.
local function settle(pred, ms, every)
  local deadline = vim.loop.hrtime() + (ms or 5000) * 1e6
  while true do
    local v = pred()
    if v or vim.loop.hrtime() >= deadline then
      return v
    end
    vim.defer_fn(resume, every or 10)
    coroutine.yield()
  end
end

-- type_keys queues keys as if typed (<C-x> etc. in angle brackets).
local function type_keys(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "n", false)
end

-- key_by_key types text in insert mode one key at a time, as a person
-- does, "<CR>" for Enter: each key is fed once Neovim has inserted the one
-- before (keys queued together are inserted together, as one change). It
-- returns how many of the keys changed the buffer.
local function key_by_key(text)
  local changed, i = 0, 1
  while i <= #text do
    local key = text:sub(i, i)
    if text:sub(i, i + 3) == "<CR>" then
      key = "<CR>"
    end
    i = i + #key
    local tick = vim.api.nvim_buf_get_changedtick(0)
    type_keys(key)
    if settle(function() return vim.api.nvim_buf_get_changedtick(0) ~= tick end, 1000, 0) then
      changed = changed + 1
    end
  end
  return changed
end

local function main()
  vim.o.showmode = false -- no "-- INSERT --" on stdout
  vim.opt.shortmess:append("c") -- nor "match 1 of 19" on stderr
  local demo = vim.api.nvim_get_current_buf()
  vim.bo[demo].filetype = "wfl"
  local exit_code
  local id = vim.lsp.start_client({
    name = "wfl",
    cmd = { os.getenv("SERVER") },
    root_dir = vim.fn.getcwd(),
    flags = { debounce_text_changes = 0 },
    on_exit = function(code, signal)
      exit_code = code
      log("server exited code=" .. code .. " signal=" .. signal)
    end,
  })
  if not check(id ~= nil, "start_client starts wfl-lsp") then
    return
  end
  vim.lsp.buf_attach_client(demo, id) -- sends didOpen (version 0)
  if not check(settle(function()
    local c = vim.lsp.get_client_by_id(id)
    return c and c.initialized
  end), "the client initializes") then
    return
  end
  local client = vim.lsp.get_client_by_id(id)
  local caps = client.server_capabilities or client.resolved_capabilities

  -- What the user sees of a buffer's diagnostics: "line:col severity message".
  local severity = { "error", "warning", "info", "hint" }
  local function shown(b)
    local t = {}
    for _, d in ipairs(vim.diagnostic.get(b)) do
      t[#t + 1] = ("%d:%d %s %s"):format(d.lnum + 1, d.col + 1, severity[d.severity], d.message)
    end
    table.sort(t)
    return t
  end
  -- The diagnostics on a line (1-based) of the severity (default error)
  -- whose message matches the Lua pattern.
  local function on_line(b, line, pattern, sev)
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(b)) do
      if d.lnum == line - 1 and d.severity == (sev or vim.diagnostic.severity.ERROR) and d.message:find(pattern) then
        found[#found + 1] = d
      end
    end
    return found
  end
  local function errors(b)
    return vim.diagnostic.get(b, { severity = vim.diagnostic.severity.ERROR })
  end
  local function is_parse(d)
    return type(d.code) == "string" and d.code:find("^PARSE%-") ~= nil
  end

  -- 1. The demo: diagnostics, hover, definition, an edit.
  -- The last line uses a name that was never declared.
  check(settle(function() return #vim.diagnostic.get(demo) > 0 end), "demo: diagnostics arrive")
  local last = vim.api.nvim_buf_line_count(demo) - 1
  local found = false
  for _, d in ipairs(vim.diagnostic.get(demo)) do
    log(("diag %d:%d %s [%s]"):format(d.lnum, d.col, d.message, tostring(d.code)))
    found = found or (d.lnum == last and d.col == 8)
  end
  check(found, "demo: a diagnostic at the undefined name (" .. last .. ":8)", shown(demo))

  -- Hover and definition on the second "first name" (line 6: call greet with first name).
  local line6 = vim.api.nvim_buf_get_lines(demo, 6, 7, false)[1]
  local col = line6:find("first name", 1, true) + 1 -- 0-based column of the 'i'
  local params = { textDocument = { uri = vim.uri_from_bufnr(demo) }, position = { line = 6, character = col } }
  local function request(method)
    local res, err = vim.lsp.buf_request_sync(demo, method, params, 3000)
    if not res then
      return nil, tostring(err)
    end
    for _, r in pairs(res) do
      if r.err then
        return nil, r.err
      end
      log(method, (vim.inspect(r.result):gsub("%s+", " ")))
      return r.result
    end
  end
  if caps.hoverProvider then
    local h, err = request("textDocument/hover")
    check(h and vim.inspect(h.contents):find("first name", 1, true), "demo: hover names the variable", h or err)
  end
  if caps.definitionProvider then
    local d, err = request("textDocument/definition")
    local loc = d and (d[1] or d)
    check(loc and loc.range and loc.range.start.line == 5, "demo: definition is the declaration on line 5", d or err)
  end

  -- Edit: declare the missing name at the top; the error goes away.
  vim.api.nvim_buf_set_lines(demo, 0, 0, false, { 'store mystery guest as "Ann"' })
  check(settle(function() return #errors(demo) == 0 end), "demo: the error goes away after the edit", shown(demo))

  -- A buffer of its own, named under the workspace folder (the settings the
  -- client sends apply to the folder's documents), never written to disk.
  local function scratch(name, lines)
    local b = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_buf_set_name(b, vim.fn.getcwd() .. "/testdata/e2e/lsp/nvim-" .. name .. ".wfl")
    vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
    vim.bo[b].filetype = "wfl"
    vim.bo[b].swapfile = false
    vim.api.nvim_set_current_buf(b)
    vim.lsp.buf_attach_client(b, id)
    return b
  end
  local function lines_of(b)
    return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n")
  end

  -- 2. Tolerant diagnostics: the user types a line and has not finished it.
  local b = scratch("typing", { "store total as 3", "display totl" })
  check(settle(function() return #on_line(b, 2, "^Variable 'totl' is not defined$") == 1 end),
    "tolerant: opened, \"Variable 'totl' is not defined\" on line 2", shown(b))
  type_keys("Gostore z as <Esc>")
  settle(function() return vim.fn.mode() == "n" and lines_of(b) == "store total as 3\ndisplay totl\nstore z as " end)
  -- A parse error at the end of line 3 as it reads now (not of a version
  -- of it published while it was being typed).
  local function parse_error_on_3()
    local line3 = vim.api.nvim_buf_get_lines(b, 2, 3, false)[1] or ""
    for _, d in ipairs(errors(b)) do
      if d.lnum == 2 and d.col == #line3 and is_parse(d) then
        return true
      end
    end
    return false
  end
  check(settle(function() return parse_error_on_3() and #on_line(b, 2, "^Variable 'totl' is not defined$") == 1 end),
    "tolerant: after typing \"store z as \" on line 3, a parse error on line 3 and \"Variable 'totl' is not defined\" still on line 2",
    shown(b))
  -- The user's setting "wfl.strictDiagnostics", sent as Neovim users do
  -- from on_init or later.
  client.notify("workspace/didChangeConfiguration", { settings = { wfl = { strictDiagnostics = true } } })
  check(settle(function() return parse_error_on_3() and #errors(b) == 1 end),
    "tolerant: with wfl.strictDiagnostics = true only the parse error on line 3 is left", shown(b))
  client.notify("workspace/didChangeConfiguration", { settings = { wfl = { strictDiagnostics = false } } })
  check(settle(function() return parse_error_on_3() and #on_line(b, 2, "^Variable 'totl' is not defined$") == 1 end),
    "tolerant: with wfl.strictDiagnostics = false the error on line 2 is back", shown(b))
  type_keys("A1<Esc>")
  settle(function() return vim.fn.mode() == "n" and lines_of(b) == "store total as 3\ndisplay totl\nstore z as 1" end)
  check(settle(function() return not parse_error_on_3() and #errors(b) == 1 and #on_line(b, 2, "'totl'") == 1 end),
    "tolerant: finishing line 3 (\"store z as 1\") removes the parse error; the 'totl' error stays", shown(b))

  -- 3. Quick fixes, chosen from vim.lsp.buf.code_action()'s list as a user
  -- does (vim.ui.select); Neovim resolves the edit and applies it.
  local function quick_fix(line, text, title)
    vim.api.nvim_win_set_cursor(0, { line, (vim.api.nvim_buf_get_lines(0, line - 1, line, false)[1]:find(text, 1, true)) })
    local offered, chosen
    local select = vim.ui.select
    vim.ui.select = function(items, opts, on_choice)
      offered = {}
      for _, item in ipairs(items) do
        local action = item[2]
        offered[#offered + 1] = action.title .. (action.isPreferred and " (preferred)" or "")
        if action.title == title then
          chosen = action
        end
      end
      vim.ui.select = select
      on_choice(chosen and vim.tbl_filter(function(i) return i[2] == chosen end, items)[1] or nil)
    end
    vim.lsp.buf.code_action()
    settle(function() return offered ~= nil end)
    vim.ui.select = select
    return offered, chosen
  end
  local offered, chosen = quick_fix(2, "totl", "Change 'totl' to 'total'")
  check(chosen and chosen.isPreferred == true, "quick fix: code_action on 'totl' offers \"Change 'totl' to 'total'\", marked preferred", offered)
  check(settle(function() return lines_of(b) == "store total as 3\ndisplay total\nstore z as 1" end),
    "quick fix applied: the buffer reads \"store total as 3 / display total / store z as 1\"", lines_of(b))
  check(settle(function() return #errors(b) == 0 end), "quick fix applied: no error is left", shown(b))

  b = scratch("redeclare", { "store count as 1", "store count as 2", "display count" })
  check(settle(function() return #on_line(b, 2, "^Variable 'count' has already been defined at line 1") == 1 end),
    "quick fix: \"Variable 'count' has already been defined at line 1 ...\" on line 2", shown(b))
  offered, chosen = quick_fix(2, "count", "Change 'count' instead of declaring it again")
  check(chosen and chosen.isPreferred == true,
    "quick fix: code_action on the redeclaration offers \"Change 'count' instead of declaring it again\", marked preferred", offered)
  check(settle(function() return lines_of(b) == "store count as 1\nchange count to 2\ndisplay count" end),
    "quick fix applied: line 2 reads \"change count to 2\"", lines_of(b))
  check(settle(function() return #errors(b) == 0 end), "quick fix applied: the redeclaration error is gone, no other error came", shown(b))

  -- 4. Completion by grammar position: <C-x><C-o> (vim.lsp.omnifunc) in
  -- insert mode; the labels of the popup menu.
  b = scratch("grammar", {
    "create container Pet:",
    "    property name: Text",
    "    ",
    "end container",
    "create container Dog extends Pet:",
    "end container",
    "store first as 1",
  })
  vim.bo[b].omnifunc = "v:lua.vim.lsp.omnifunc"
  vim.o.completeopt = "menuone,noinsert,noselect" -- the menu only; the buffer keeps what was typed
  -- offered returns the labels of the popup menu, once it shows.
  local function offered()
    settle(function() return vim.fn.pumvisible() == 1 end)
    local labels = {}
    for _, item in ipairs(vim.fn.complete_info({ "items" }).items or {}) do
      labels[#labels + 1] = item.abbr ~= "" and item.abbr or item.word
    end
    return labels
  end
  local function menu(keys)
    type_keys(keys .. "<C-x><C-o>")
    local labels = offered()
    type_keys("<C-e><Esc>")
    settle(function() return vim.fn.mode() == "n" end)
    return labels
  end
  local function all(got, want)
    for _, w in ipairs(want) do
      if not vim.tbl_contains(got, w) then
        return false
      end
    end
    return true
  end
  local function none(got, bad)
    for _, w in ipairs(bad) do
      if vim.tbl_contains(got, w) then
        return false
      end
    end
    return true
  end
  local function head(t, n)
    return vim.list_slice(t, 1, n)
  end
  local got = menu("Gostore z as ")
  check(all(got, { "first", "yes", "nothing", "length", "call" }) and none(got, { "plus", "is greater than", "and", "store", "display", "z" }),
    "completion after \"store z as \": names, literals, builtins, call; no operator, no statement, not z itself", head(got, 30))
  got = menu("ostore w as first ")
  check(all(got, { "plus", "minus", "is greater than", "and" }) and none(got, { "first", "store", "length" }),
    "completion after an operand (\"store w as first \"): operators and comparisons, no name", got)
  got = menu("ostore p as create new ")
  check(#got == 2 and all(got, { "Pet", "Dog" }), "completion after \"create new \": the containers only (Dog, Pet)", head(got, 20))
  got = menu("odefine action called f with n as ")
  check(all(got, { "text", "number", "list", "Pet" }) and none(got, { "first", "store", "plus", "length" }),
    "completion after \"as\" in parameters: type names and containers only", got)
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  got = menu("A")
  check(all(got, { "property", "action", "event" }) and none(got, { "store", "display", "check if", "first" }),
    "completion in a container body: property, action, event; no statement, no variable", got)

  -- 5. Signature help with the argument still empty, asked in insert mode
  -- (users map a key to vim.lsp.buf.signature_help()): the floating window
  -- shows the signature and the active parameter Neovim highlights in it.
  b = scratch("signature", {
    "define action called f with a and b:",
    "    give back a",
    "end action",
    'store s as "hello"',
  })
  local shown_sig
  local handler = vim.lsp.handlers["textDocument/signatureHelp"]
  vim.lsp.handlers["textDocument/signatureHelp"] = function(err, result, ctx, config)
    local fbuf, fwin = handler(err, result, ctx, config)
    shown_sig = { result = result }
    if fbuf then
      shown_sig.first = vim.api.nvim_buf_get_lines(fbuf, 0, 1, false)[1]
      -- The range the handler highlights as the active parameter.
      local _, hl = vim.lsp.util.convert_signature_help_to_markdown_lines(result, "wfl", client.resolved_capabilities.signature_help_trigger_characters)
      shown_sig.active = hl and shown_sig.first:sub(hl[1] + 1, hl[2])
    end
    return fbuf, fwin
  end
  local function signature(keys)
    shown_sig = nil
    type_keys(keys .. "<Cmd>lua vim.lsp.buf.signature_help()<CR>")
    settle(function() return shown_sig ~= nil end)
    type_keys("<Esc>")
    settle(function() return vim.fn.mode() == "n" end)
    return shown_sig or {}
  end
  local sub = "substring(text as Text, start as Number, length as Number) -> Text"
  local s = signature("Godisplay substring of ")
  check(s.first == sub and s.active == "text as Text",
    "signature help on \"display substring of |\": the float shows " .. sub .. " with \"text as Text\" highlighted", s)
  s = signature("odisplay substring of s and ")
  check(s.first == sub and s.active == "start as Number",
    "signature help on \"display substring of s and |\" (empty argument): \"start as Number\" highlighted", s)
  s = signature('ocall f with "a" and ')
  check(s.first == "action f with a and b" and s.active == "b",
    "signature help on 'call f with \"a\" and |' (empty argument): action f with a and b, \"b\" highlighted", s)
  s = signature('odisplay f of "a" and ')
  check(s.first == "action f with a and b" and s.active == "b",
    "signature help on 'display f of \"a\" and |': the same signature, \"b\" highlighted", s)
  vim.lsp.handlers["textDocument/signatureHelp"] = handler

  -- 6. An action typed in insert mode into the middle of scores.wfl, key by
  -- key (Neovim sends a didChange a key), with Neovim's default
  -- autoindent, and no `end action`: <C-x><C-o> inside the unfinished body
  -- offers its parameter and what it stored; below it, hover shows a
  -- name's declaration, the outline (document_symbol's quickfix list) still
  -- lists every symbol, and the diagnostics below are the ones it had.
  local path = "testdata/e2e/lsp/scores.wfl"
  local program = vim.fn.readfile(path)
  b = scratch("scores", program)
  vim.bo[b].omnifunc = "v:lua.vim.lsp.omnifunc"
  -- The diagnostics published for the buffer's current text (each didChange
  -- carries its changedtick as the version).
  local published = {}
  local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
    publish(err, result, ctx, config)
    published[result.uri] = result.version
  end
  local function current()
    return published[vim.uri_from_bufnr(b)] == vim.lsp.util.buf_versions[b]
  end
  local function outline()
    vim.fn.setqflist({}, "r")
    vim.lsp.buf.document_symbol()
    settle(function() return #vim.fn.getqflist() > 0 end)
    local items = vim.tbl_map(function(i) return { lnum = i.lnum, text = i.text } end, vim.fn.getqflist())
    vim.cmd("cclose")
    return items
  end
  check(settle(current), "unfinished block: scores.wfl opened, its diagnostics published", shown(b))
  local before, symbols = shown(b), outline()
  local changes, notify = 0, client.notify
  client.notify = function(method, params)
    if method == "textDocument/didChange" then
      changes = changes + 1
    end
    return notify(method, params)
  end
  local header = vim.fn.index(program, "end action") + 2 -- the line after the first action
  vim.api.nvim_win_set_cursor(0, { header - 1, 0 })
  -- "o", then the keys; autoindent keeps the indentation of the line above.
  local keys, typed = "", 0
  -- offers_after types more key by key, then <C-x><C-o>: the menu must
  -- offer want; <C-e> closes it.
  local function offers_after(more, want, what)
    keys = keys .. more
    typed = typed + key_by_key(more)
    type_keys("<C-x><C-o>")
    local labels = offered()
    check(vim.tbl_contains(labels, want), what, labels)
    type_keys("<C-e>")
    settle(function() return vim.fn.pumvisible() == 0 end)
  end
  offers_after("odefine action called tally with parameters scores:<CR>    store total as 0<CR>for each s in sc", "scores",
    "unfinished block: <C-x><C-o> after \"for each s in sc\" offers the parameter \"scores\"")
  offers_after("ores:<CR>    change total to t", "total",
    "unfinished block: <C-x><C-o> after \"change total to t\" offers \"total\", which the block stored")
  keys = keys .. "otal plus s"
  typed = typed + key_by_key("otal plus s")
  type_keys("<Esc>")
  local block = {
    "define action called tally with parameters scores:",
    "    store total as 0",
    "    for each s in scores:",
    "        change total to total plus s",
  }
  local want = vim.list_extend(vim.list_slice(program, 1, header - 1), block)
  want = table.concat(vim.list_extend(want, vim.list_slice(program, header)), "\n")
  settle(function() return vim.fn.mode() == "n" and lines_of(b) == want end)
  client.notify = notify
  local count = #keys:gsub("<CR>", "\n")
  -- Each key is a didChange; so is each of the popup menu's own edits (it
  -- takes the prefix out and puts it back).
  check(lines_of(b) == want and typed == count and changes >= count,
    ("unfinished block: %d keys, each a change of the buffer, typed the block after the first action, no closer (%d didChange notifications)"):format(count, changes),
    lines_of(b))
  local below = header + #block -- the first line after the block

  -- Hover (vim.lsp.buf.hover(), which users map to K) on "best score" in
  -- the last line: the floating window's text.
  local last = vim.api.nvim_buf_line_count(b)
  vim.api.nvim_win_set_cursor(0, { last, (vim.api.nvim_buf_get_lines(b, last - 1, last, false)[1]:find("best score", 1, true)) + 1 })
  local float
  local hover = vim.lsp.handlers["textDocument/hover"]
  vim.lsp.handlers["textDocument/hover"] = function(err, result, ctx, config)
    local fbuf, fwin = hover(err, result, ctx, config)
    float = fbuf and vim.api.nvim_buf_get_lines(fbuf, 0, -1, false) or { "(no hover)" }
    if fwin then
      vim.api.nvim_win_close(fwin, true)
    end
    return fbuf, fwin
  end
  vim.lsp.buf.hover()
  settle(function() return float ~= nil end)
  vim.lsp.handlers["textDocument/hover"] = hover
  local decl = vim.fn.search("^store best score", "nw")
  local text = table.concat(float or {}, "\n")
  check(text:find("variable best score: Number", 1, true) and text:find(("Declared on line %d."):format(decl), 1, true),
    ("unfinished block: hover on \"best score\" (line %d) below it shows \"variable best score: Number\", declared on line %d"):format(last, decl), float)

  -- The outline: what it listed before (lines below the block moved down),
  -- and tally with its parameter on the block's lines.
  local after, moved, own = outline(), {}, {}
  for _, s in ipairs(after) do
    if s.lnum >= header and s.lnum < below then
      own[#own + 1] = s.text
    else
      moved[#moved + 1] = ("%d %s"):format(s.lnum < header and s.lnum or s.lnum - #block, s.text)
    end
  end
  local was = vim.tbl_map(function(s) return ("%d %s"):format(s.lnum, s.text) end, symbols)
  local function listed(name)
    for _, t in ipairs(own) do
      if t:sub(-#name - 2) == "] " .. name then
        return true
      end
    end
  end
  check(vim.deep_equal(moved, was) and listed("tally") and listed("scores"),
    "unfinished block: document_symbol lists every symbol it listed before, and tally with its parameter on the block's lines", after)

  -- Diagnostics below the block: the closers' errors, and what was there.
  check(settle(current), "unfinished block: the diagnostics of the typed text are published", shown(b))
  local function is_closer(d)
    return d:find(" error expected 'end action' to close the action 'tally'", 1, true) or d:find(" error expected 'end for'", 1, true)
  end
  local had, has_now, closers = {}, {}, 0
  for _, d in ipairs(before) do
    local line, rest = d:match("^(%d+)(:.*)$")
    if tonumber(line) >= header then
      had[#had + 1] = (tonumber(line) + #block) .. rest
    end
  end
  for _, d in ipairs(shown(b)) do
    if is_closer(d) then
      closers = closers + 1
    elseif tonumber(d:match("^%d+")) >= below then
      has_now[#has_now + 1] = d
    end
  end
  table.sort(had)
  table.sort(has_now)
  check(closers > 0 and vim.deep_equal(had, has_now),
    "unfinished block: below it, the error of the missing \"end action\" and what was there before (" .. table.concat(had, "; ") .. "), nothing else",
    shown(b))
  vim.lsp.handlers["textDocument/publishDiagnostics"] = publish

  do
    -- 7. Rename across include: main.wfl includes lib/util.wfl, which
    -- includes lib/shapes.wfl, which declares Shape with property size (the
    -- files of testdata/e2e/lsp/include/, copied to a temporary folder). With
    -- only main.wfl open, vim.lsp.buf.rename() on "size" in main's
    -- "size is 4" renames the property in all three files: Neovim loads the
    -- two that are not open and applies their edits.
    local src, dir = vim.fn.getcwd() .. "/testdata/e2e/lsp/include/", vim.fn.tempname() .. "/"
    vim.fn.mkdir(dir .. "lib", "p")
    local names = { "main.wfl", "lib/util.wfl", "lib/shapes.wfl" }
    local before = {}
    for _, n in ipairs(names) do
      before[n] = vim.fn.readfile(src .. n)
      vim.fn.writefile(before[n], dir .. n)
    end
    vim.cmd("edit " .. dir .. "main.wfl")
    b = vim.api.nvim_get_current_buf()
    vim.bo[b].filetype = "wfl"
    vim.lsp.buf_attach_client(b, id)
    settle(function() return #vim.diagnostic.get(b) > 0 end)
    vim.api.nvim_win_set_cursor(0, { 4, 5 }) -- "    size is 4", on "size"
    vim.lsp.buf.rename("extent")
    local function renamed(n)
      local nb = vim.fn.bufnr(dir .. n)
      if nb < 0 or not vim.api.nvim_buf_is_loaded(nb) then
        return nil
      end
      return table.concat(vim.api.nvim_buf_get_lines(nb, 0, -1, false), "\n")
    end
    local function want(n)
      return (table.concat(before[n], "\n"):gsub("size", "extent"))
    end
    settle(function()
      for _, n in ipairs(names) do
        if renamed(n) ~= want(n) then
          return false
        end
      end
      return true
    end)
    for _, n in ipairs(names) do
      local _, count = table.concat(before[n], "\n"):gsub("size", "")
      check(renamed(n) == want(n), ("rename across include: the property 'size' (declared in lib/shapes.wfl) renamed 'extent' from main.wfl: %s has its %d places renamed and nothing else"):format(n, count), renamed(n) or ("no buffer " .. vim.inspect(vim.tbl_map(vim.api.nvim_buf_get_name, vim.api.nvim_list_bufs()))))
    end
  end

  -- 8. Shutdown, then exit.
  vim.lsp.stop_client(id)
  check(settle(function() return exit_code ~= nil end), "the server exits after shutdown and exit")
  check(exit_code == 0, "the server's exit code is 0", exit_code)
end

co = coroutine.create(function()
  main()
  if failures == 0 then
    log(("PASS neovim (%d checks)"):format(checks))
    vim.cmd("qall!")
  else
    log(("FAIL neovim: %d of %d checks failed"):format(failures, checks))
    vim.cmd("cquit 1")
  end
end)
resume()
