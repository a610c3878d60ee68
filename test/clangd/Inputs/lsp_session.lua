-- One editing session with cuda-clangd through Neovim's own LSP client
-- (test/clangd/lsp-session.test). Run as
--   nvim --headless -u NONE -i NONE -c 'luafile lsp_session.lua'
-- with CUDA_CLANGD (the server), SESSION_FILE (the .cu file to edit) and
-- SESSION_OUT (where the transcript goes). The transcript lists every
-- diagnostic published for each step, and the code actions of one finding.
local server = assert(os.getenv('CUDA_CLANGD'), 'CUDA_CLANGD is not set')
local file = assert(os.getenv('SESSION_FILE'), 'SESSION_FILE is not set')
local out = assert(io.open(assert(os.getenv('SESSION_OUT')), 'w'))
local timeout = tonumber(os.getenv('SESSION_TIMEOUT_MS') or '120000')

local function say(line)
  out:write(line, '\n')
  out:flush()
end

local published = {} -- version -> diagnostics
local client_id = vim.lsp.start_client({
  name = 'cuda-clangd',
  cmd = { server, '--cuda-check-costs=false', '--log=error', '--background-index=false' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  flags = { debounce_text_changes = 0 },
  -- What the server says it is (the initialize answer's serverInfo).
  on_init = function(_, result)
    local info = result and result.serverInfo or {}
    say('server: ' .. tostring(info.name) .. ' ' .. tostring(info.version))
  end,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, result)
      if vim.uri_to_fname(result.uri) == file then
        published[result.version or -1] = result.diagnostics
      end
    end,
  },
})
if not client_id then
  say('ERROR: cuda-clangd did not start')
  vim.cmd('cquit 1')
end

local function fail(message)
  say('ERROR: ' .. message)
  vim.cmd('cquit 1')
end

-- The diagnostics clangd published for the buffer's current text.
local function diagnostics_now(bufnr)
  -- The version is known once the client has sent didOpen (after the
  -- server's initialize answer).
  local function current()
    local version = vim.lsp.util.buf_versions[bufnr]
    return version ~= nil and published[version]
  end
  if not vim.wait(timeout, function() return current() end, 20) then
    fail('no diagnostics for version ' ..
      tostring(vim.lsp.util.buf_versions[bufnr]))
  end
  local diags = current()
  table.sort(diags, function(a, b)
    if a.range.start.line ~= b.range.start.line then
      return a.range.start.line < b.range.start.line
    end
    return a.range.start.character < b.range.start.character
  end)
  return diags
end

local function show(step, diags)
  say(step .. ': ' .. #diags .. ' diagnostics')
  for _, d in ipairs(diags) do
    say(string.format('%s: %d:%d: %s [%s] %s', step, d.range.start.line + 1,
      d.range.start.character + 1, d.severity == 1 and 'error' or 'warning',
      tostring(d.code), d.message))
  end
end

local function find(diags, code)
  for _, d in ipairs(diags) do
    if d.code == code then return d end
  end
  fail('no ' .. code .. ' finding')
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

-- Open.
local diags = diagnostics_now(bufnr)
show('open', diags)

-- The code actions of the wrong copy direction: its fix-it.
local target = find(diags, 'cuda-memcpy-direction')
local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
  textDocument = vim.lsp.util.make_text_document_params(bufnr),
  range = target.range,
  context = { diagnostics = { target } },
}, timeout)
local fix
for _, response in pairs(responses or {}) do
  for _, action in ipairs(response.result or {}) do
    say('action: ' .. action.title .. ' (' .. tostring(action.kind) .. ')')
    if action.kind == 'quickfix' and action.edit then fix = action end
  end
end
if not fix then fail('no quick fix for cuda-memcpy-direction') end

-- Apply it: the buffer changes, the finding goes.
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
show('fixed', diagnostics_now(bufnr))

-- Type a new bug: an unchecked cudaFree before the return.
local last = vim.api.nvim_buf_line_count(bufnr)
local lines = vim.api.nvim_buf_get_lines(bufnr, 0, last, false)
for i = #lines, 1, -1 do
  if lines[i]:match('^%s*return') then
    vim.api.nvim_buf_set_lines(bufnr, i - 1, i - 1, false, { '  cudaFree(d);' })
    break
  end
end
show('edited', diagnostics_now(bufnr))

-- Save, and shut the server down cleanly.
vim.cmd('write')
say('saved: ' .. vim.fn.getline(vim.fn.search('cudaMemcpy(', 'n')))
vim.lsp.stop_client(client_id)
if not vim.wait(timeout, function() return vim.lsp.client_is_stopped(client_id) end, 20) then
  fail('cuda-clangd did not stop')
end
say('stopped')
out:close()
vim.cmd('qall!')
