-- End-to-end test of wfl-lsp under headless Neovim 0.7 (Debian's), with
-- Neovim's built-in LSP client:
--
--   SERVER=BIN nvim --headless --clean -u NONE -c "luafile testdata/e2e/lsp/nvim.lua" testdata/e2e/lsp/demo.wfl
--
-- It attaches the server to the buffer, waits for diagnostics, asks for hover
-- and definition when the server offers them, edits the buffer (Neovim sends
-- the change incrementally), and stops the server. Prints "PASS" and exits 0,
-- or prints "FAIL: …" and exits 1.
local out = io.stdout
local function log(...)
  out:write(table.concat(vim.tbl_map(tostring, { ... }), " "), "\n")
  out:flush()
end
local function fail(msg)
  log("FAIL: " .. msg)
  vim.cmd("cquit 1")
end

local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = "wfl"
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
if not id then
  return fail("start_client returned nil")
end
vim.lsp.buf_attach_client(bufnr, id) -- sends didOpen (version 0)
if not vim.wait(5000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c and c.initialized
end, 10) then
  return fail("client never initialized")
end
local client = vim.lsp.get_client_by_id(id)
local caps = client.server_capabilities or client.resolved_capabilities

-- Diagnostics: the last line uses a name that was never declared.
if not vim.wait(5000, function() return #vim.diagnostic.get(bufnr) > 0 end, 10) then
  return fail("no diagnostics")
end
local last = vim.api.nvim_buf_line_count(bufnr) - 1
local found = false
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  log(("diag %d:%d %s [%s]"):format(d.lnum, d.col, d.message, tostring(d.code)))
  if d.lnum == last and d.col == 8 then
    found = true
  end
end
if not found then
  return fail("no diagnostic at " .. last .. ":8 (the undefined name)")
end

-- Hover and definition on the second "first name" (line 6: call greet with first name).
local line6 = vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1]
local col = line6:find("first name", 1, true) + 1 -- 0-based column of the 'i'
local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 6, character = col } }
local function request(method)
  local res, err = vim.lsp.buf_request_sync(bufnr, method, params, 3000)
  if not res then
    fail(method .. ": " .. tostring(err))
    return nil
  end
  for _, r in pairs(res) do
    if r.err then
      fail(method .. ": " .. vim.inspect(r.err))
      return nil
    end
    log(method, (vim.inspect(r.result):gsub("%s+", " ")))
    return r.result
  end
end
if caps.hoverProvider then
  local h = request("textDocument/hover")
  if not h then return end
  if not vim.inspect(h.contents):find("first name", 1, true) then
    return fail("hover does not name the variable")
  end
end
if caps.definitionProvider then
  local d = request("textDocument/definition")
  if not d then return end
  local loc = d[1] or d
  if not (loc.range and loc.range.start.line == 5) then
    return fail("definition is not the declaration on line 5")
  end
end

-- Edit: declare the missing name at the top; the error goes away.
vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'store mystery guest as "Ann"' })
if not vim.wait(5000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == vim.diagnostic.severity.ERROR then
      return false
    end
  end
  return true
end, 10) then
  return fail("the error did not go away after the edit")
end

vim.lsp.stop_client(id) -- shutdown, then exit
if not vim.wait(5000, function() return exit_code ~= nil end, 10) then
  return fail("server did not exit")
end
if exit_code ~= 0 then
  return fail("server exit code " .. exit_code)
end
log("PASS neovim")
vim.cmd("qall!")
