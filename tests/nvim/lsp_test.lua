-- The tether language server in a real Neovim (0.7.2 and later), run headless:
--
--   TETHER_TEST_ROOT=/tmp/repo TETHER_TEST_CMD='["tether","lsp"]' \
--     nvim --headless -u NONE -c 'luafile tests/nvim/lsp_test.lua'
--
-- Environment:
--   TETHER_TEST_ROOT     the workspace folder: a git repository holding a copy of examples/shop
--   TETHER_TEST_CMD      the server command, a JSON array (default ["tether","lsp"])
--   TETHER_TEST_TIMEOUT  the global timeout in milliseconds (default 60000)
--
-- Exit status 0 when every check passes (`qall!`), 1 on the first failure (`cquit 1`).
-- tests/test_nvim.py runs it.

local uv = vim.loop

local function out(msg)
  io.stdout:write(msg .. "\n")
  io.stdout:flush()
end

local ROOT = os.getenv("TETHER_TEST_ROOT")
local CMD = vim.fn.json_decode(os.getenv("TETHER_TEST_CMD") or '["tether","lsp"]')
local TIMEOUT = tonumber(os.getenv("TETHER_TEST_TIMEOUT") or "") or 60000
local STEP = math.min(20000, TIMEOUT) -- the longest any single wait may take

local client_id

-- Global timeout: a raw libuv timer, so it fires even if the editor's main loop is stuck.
-- It stops the server (a hung server does not read its closed stdin) and exits with 1.
local watchdog = uv.new_timer()
watchdog:start(TIMEOUT, 0, function()
  io.stdout:write(("FAIL: global timeout (%d ms) reached\n"):format(TIMEOUT))
  io.stdout:flush()
  local c = client_id and vim.lsp.get_client_by_id(client_id)
  if c and c.rpc and c.rpc.pid then pcall(uv.kill, c.rpc.pid, "sigkill") end
  os.exit(1)
end)

local function finish(ok)
  watchdog:stop()
  if client_id and vim.lsp.get_client_by_id(client_id) then
    vim.lsp.stop_client(client_id)
    vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  end
  if ok then
    out("PASS: all Neovim LSP checks")
    vim.cmd("qall!")
  else
    vim.cmd("cquit 1")
  end
end

local function fail(msg)
  out("FAIL: " .. msg)
  finish(false)
  error("unreachable after cquit") -- stops the script if cquit returns
end

local function check(cond, msg)
  if not cond then fail(msg) end
end

local function ok(msg) out("ok: " .. msg) end

local function notes_dir() return ROOT .. "/.tether/notes" end
local function note_files()
  return vim.fn.glob(notes_dir() .. "/*.md", true, true)
end
local function new_note_files(before)
  local seen, fresh = {}, {}
  for _, f in ipairs(before) do seen[f] = true end
  for _, f in ipairs(note_files()) do
    if not seen[f] then table.insert(fresh, f) end
  end
  return fresh
end
local function file_has(path, needle)
  for _, line in ipairs(vim.fn.readfile(path)) do
    if line:find(needle, 1, true) then return true end
  end
  return false
end

-- ============================================================================================
-- The user setup documented for Neovim users (the 0.7-compatible parts, kept identical to
-- the documentation): finding the tether client of a buffer, the :TetherRecord command and a
-- window/showDocument handler for versions that have none (0.7 has none).
-- ============================================================================================

local function tether_client(bufnr)
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients({ bufnr = bufnr, name = "tether" })[1]
  end
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == "tether" then return c end
  end
end

local function tether_request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local KINDS = { "decision", "invariant", "boundary", "intent", "workaround" }

vim.api.nvim_create_user_command("TetherRecord", function(opts)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = tether_client(bufnr)
  if not client then
    vim.notify("tether: no tether language server on this buffer", vim.log.levels.ERROR)
    return
  end
  local kind = opts.fargs[1]
  local title = table.concat(vim.list_slice(opts.fargs, 2), " ")
  local pos = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local arg = { uri = pos.textDocument.uri, position = pos.position, kind = kind }
  if title ~= "" then arg.title = title end -- no title: tether opens a template note
  tether_request(client, "workspace/executeCommand",
    { command = "tether.record", arguments = { arg } },
    function(err, note)
      if err then
        vim.notify("tether: " .. (err.message or tostring(err)), vim.log.levels.ERROR)
      elseif note and note ~= vim.NIL then
        vim.notify(("tether: recorded %s %s"):format(note.kind, note.file))
      end
    end, bufnr)
end, {
  nargs = "+",
  desc = "tether: record a note at the cursor (:TetherRecord {kind} [{title}])",
  complete = function(lead)
    return vim.tbl_filter(function(k) return k:sub(1, #lead) == lead end, KINDS)
  end,
})

-- For Neovim versions without a built-in window/showDocument handler (0.7 has none):
-- tether asks the editor to open a new template note with it.
local function show_document(_, result, ctx)
  local fname = vim.uri_to_fname(result.uri)
  vim.cmd("edit " .. vim.fn.fnameescape(fname))
  if result.selection then
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local s = result.selection.start
    local line = vim.api.nvim_buf_get_lines(0, s.line, s.line + 1, false)[1] or ""
    local enc = client and client.offset_encoding or "utf-16"
    local ok_idx, col = pcall(vim.str_byteindex, line, s.character, enc == "utf-16")
    if enc == "utf-8" or not ok_idx then col = math.min(s.character, #line) end
    vim.api.nvim_win_set_cursor(0, { s.line + 1, col })
  end
  return { success = true }
end
if not vim.lsp.handlers["window/showDocument"] then
  vim.lsp.handlers["window/showDocument"] = show_document
end

-- ============================================================================================
-- The test
-- ============================================================================================

check(ROOT and ROOT ~= "", "TETHER_TEST_ROOT is not set")
check(vim.fn.isdirectory(notes_dir()) == 1, "no .tether/notes in " .. ROOT)
out(("nvim %s, root %s, server %s"):format(tostring(vim.version().major .. "." .. vim.version().minor .. "." .. vim.version().patch), ROOT, table.concat(CMD, " ")))

local show_calls = {}
local publishes = 0
local server_exit

client_id = vim.lsp.start_client({
  name = "tether",
  cmd = CMD,
  root_dir = ROOT,
  flags = { debounce_text_changes = 0 },
  handlers = {
    ["window/showDocument"] = function(err, result, ctx, config)
      table.insert(show_calls, result)
      return show_document(err, result, ctx, config)
    end,
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      publishes = publishes + 1
      return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
    ["window/showMessage"] = function(_, result)
      out(("server message (type %s): %s"):format(tostring(result.type), tostring(result.message)))
    end,
  },
  on_exit = function(code, signal)
    server_exit = ("code %s, signal %s"):format(tostring(code), tostring(signal))
  end,
})
check(client_id, "vim.lsp.start_client returned nil (cmd " .. table.concat(CMD, " ") .. ")")

local file = ROOT .. "/billing/ledger.py"
vim.cmd("edit " .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
check(vim.lsp.buf_attach_client(bufnr, client_id), "buf_attach_client failed")

local initialized = vim.wait(STEP, function()
  local c = vim.lsp.get_client_by_id(client_id)
  return server_exit ~= nil or (c ~= nil and c.initialized and publishes > 0)
end, 20)
check(server_exit == nil, "the server exited: " .. tostring(server_exit))
check(initialized, "the server did not initialize and publish diagnostics for the opened file")
ok("server initialized, first diagnostics published")

local function diags(code)
  return vim.tbl_filter(function(d)
    return d.source == "tether" and (code == nil or d.code == code)
  end, vim.diagnostic.get(bufnr))
end
check(#diags("invariant-drift") == 0, "invariant-drift before any edit")

local function lines_of(b) return vim.api.nvim_buf_get_lines(b, 0, -1, false) end
local function find_line(pattern)
  for i, l in ipairs(lines_of(bufnr)) do
    if l:find(pattern, 1, true) then return i - 1 end
  end
  fail("no line containing " .. pattern .. " in " .. file)
end

local function request(method, params)
  local res, err = vim.lsp.buf_request_sync(bufnr, method, params, STEP)
  check(res, method .. ": no answer (" .. tostring(err) .. ")")
  local r = res[client_id]
  check(r, method .. ": no answer from the tether client")
  check(r.err == nil, method .. ": error " .. vim.inspect(r.err))
  return r.result
end

local uri = vim.uri_from_bufnr(bufnr)

-- (a) hover on the anchored function ---------------------------------------------------------
local append_line = find_line("def append(")
local function hover_text(line, character)
  local hover = request("textDocument/hover", {
    textDocument = { uri = uri }, position = { line = line, character = character } })
  check(hover and hover ~= vim.NIL, ("hover at %d:%d returned nothing"):format(line, character))
  local contents = hover.contents
  if type(contents) == "table" and contents.value then return contents.value end
  if type(contents) == "table" then
    return table.concat(vim.tbl_map(function(c) return type(c) == "table" and c.value or tostring(c) end, contents), "\n")
  end
  return tostring(contents)
end
local text = hover_text(append_line, 9) -- on the name `append`
check(text:find("The ledger is append-only", 1, true), "hover on Ledger.append lacks the invariant's title:\n" .. text)
-- the decision is anchored on the `if` statement inside it
text = hover_text(append_line + 1, 12)
check(text:find("Amounts are integer cents", 1, true), "hover on the if statement lacks the decision's title:\n" .. text)
ok("hover shows the notes' titles")

-- (b) an edit inside the invariant's function: invariant-drift ------------------------------
local insert_line = find_line('self.db.insert("ledger"')
vim.api.nvim_buf_set_lines(bufnr, insert_line, insert_line + 1, false,
  { '        self.db.upsert("ledger", entry.__dict__)  # was insert' })
local drifted = vim.wait(STEP, function() return #diags("invariant-drift") > 0 end, 20)
check(drifted, "no invariant-drift diagnostic after the edit; diagnostics: " .. vim.inspect(vim.diagnostic.get(bufnr)))
local drift = diags("invariant-drift")[1]
-- tether marks the head line of the anchored definition, not its whole body
check(drift.lnum == append_line,
  ("drift diagnostic on line %d, not on the head of Ledger.append (line %d)"):format(drift.lnum, append_line))
check(drift.message:find("append-only", 1, true), "drift message lacks the note title: " .. drift.message)
ok("invariant-drift after the edit: " .. drift.message)

-- (c) code actions: record actions, and quick fixes for the drift ----------------------------
-- vim.diagnostic entries are rebuilt as LSP diagnostics (0.7's user_data.lsp lacks range/message).
local function to_lsp(d)
  local lsp = (d.user_data or {}).lsp or {}
  return {
    range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
    severity = d.severity, message = d.message, source = d.source, code = d.code, data = lsp.data,
  }
end
-- as vim.lsp.buf.code_action() asks: the cursor's position and the diagnostics on its line
local on_line = vim.tbl_filter(function(d) return d.lnum == drift.lnum end, diags())
local actions = request("textDocument/codeAction", {
  textDocument = { uri = uri },
  range = { start = { line = drift.lnum, character = 10 }, ["end"] = { line = drift.lnum, character = 10 } },
  context = { diagnostics = vim.tbl_map(to_lsp, on_line) },
})
check(type(actions) == "table", "codeAction returned " .. vim.inspect(actions))
local by_title = {}
for _, a in ipairs(actions) do by_title[a.title] = a end
local record_action = by_title["Record decision here"]
check(record_action, "no 'Record decision here' action: " .. vim.inspect(vim.tbl_keys(by_title)))
check(record_action.command and record_action.command.command == "tether.record",
  "'Record decision here' does not carry the tether.record command: " .. vim.inspect(record_action))
local confirm_action = by_title["Still holds (confirm invariant)"]
check(confirm_action, "no 'Still holds (confirm invariant)' quick fix for the drift: " .. vim.inspect(vim.tbl_keys(by_title)))
ok("code actions: " .. table.concat(vim.tbl_keys(by_title), ", "))

-- the quick fix's command clears the drift, with the edit still unsaved: tether confirms the
-- code as the buffer has it, not the file on disk
check(vim.bo[bufnr].modified, "the buffer should still be unsaved here")
request("workspace/executeCommand", confirm_action.command)
check(vim.wait(STEP, function() return #diags("invariant-drift") == 0 end, 20),
  "invariant-drift still shown after 'Still holds'")
ok("'Still holds' cleared the drift")

-- executing the record action's command with a title: a note file
local before = note_files()
local arg = vim.deepcopy(record_action.command.arguments[1])
arg.title = "Refunds reuse append"
arg.rationale = "one code path writes the ledger"
local note = request("workspace/executeCommand", { command = "tether.record", arguments = { arg } })
check(type(note) == "table" and note.title == "Refunds reuse append", "tether.record returned " .. vim.inspect(note))
local fresh = new_note_files(before)
check(#fresh == 1, "expected one new note file, got " .. vim.inspect(fresh))
check(file_has(fresh[1], 'title = "Refunds reuse append"'), fresh[1] .. " lacks the title")
check(file_has(fresh[1], 'kind = "decision"'), fresh[1] .. " is not a decision")
check(#show_calls == 0, "window/showDocument sent for a note with a title")
ok("tether.record with a title wrote " .. vim.fn.fnamemodify(fresh[1], ":t"))

-- without a title: a template note, opened through window/showDocument
before = note_files()
local balance_line = find_line("def balance(")
note = request("workspace/executeCommand", { command = "tether.record", arguments = { {
  uri = uri, position = { line = balance_line, character = 8 }, kind = "intent" } } })
check(type(note) == "table", "tether.record without a title returned " .. vim.inspect(note))
check(#show_calls == 1, "expected one window/showDocument, got " .. #show_calls)
fresh = new_note_files(before)
check(#fresh == 1, "expected one template note file, got " .. vim.inspect(fresh))
local shown = vim.uri_to_fname(show_calls[1].uri)
check(vim.fn.resolve(shown) == vim.fn.resolve(fresh[1]), "showDocument opened " .. shown .. ", not " .. fresh[1])
check(show_calls[1].takeFocus == true, "showDocument without takeFocus")
check(file_has(fresh[1], "New intent: replace this line with the title"), fresh[1] .. " is not a template")
local sel = show_calls[1].selection
local title_row = vim.fn.readfile(fresh[1])[sel.start.line + 1] or ""
check(title_row:sub(sel.start.character + 1, sel["end"].character) == "New intent: replace this line with the title",
  "the selection does not cover the title: " .. vim.inspect(sel) .. " on " .. title_row)
check(vim.fn.resolve(vim.api.nvim_buf_get_name(0)) == vim.fn.resolve(fresh[1]),
  "the template note is not the current buffer")
check(vim.api.nvim_win_get_cursor(0)[1] == sel.start.line + 1, "the cursor is not on the title line")
ok("tether.record without a title opened the template " .. vim.fn.fnamemodify(fresh[1], ":t"))

-- the documented :TetherRecord command -----------------------------------------------------
vim.cmd("buffer " .. bufnr)
check(vim.api.nvim_get_current_buf() == bufnr, "could not go back to ledger.py")
local refund_line = find_line("def refund(")
vim.api.nvim_win_set_cursor(0, { refund_line + 1, 8 })
before = note_files()
vim.cmd("TetherRecord boundary Refunds never touch the original row")
check(vim.wait(STEP, function() return #new_note_files(before) == 1 end, 20),
  ":TetherRecord boundary <title> wrote no note file")
fresh = new_note_files(before)
check(file_has(fresh[1], 'title = "Refunds never touch the original row"'), fresh[1] .. " lacks the title")
check(file_has(fresh[1], 'name = "Ledger.refund"'), fresh[1] .. " is not anchored on Ledger.refund")
ok(":TetherRecord {kind} {title} recorded " .. vim.fn.fnamemodify(fresh[1], ":t"))

before = note_files()
local calls = #show_calls
vim.cmd("TetherRecord workaround")
check(vim.wait(STEP, function() return #show_calls > calls end, 20),
  ":TetherRecord workaround did not open a template")
fresh = new_note_files(before)
check(#fresh == 1 and file_has(fresh[1], 'kind = "workaround"'), ":TetherRecord workaround wrote " .. vim.inspect(fresh))
check(vim.fn.resolve(vim.api.nvim_buf_get_name(0)) == vim.fn.resolve(fresh[1]),
  "the workaround template is not the current buffer")
ok(":TetherRecord {kind} opened the template " .. vim.fn.fnamemodify(fresh[1], ":t"))

check(server_exit == nil, "the server exited: " .. tostring(server_exit))
finish(true)
