-- Jaiph in Neovim (0.7 or later: Debian stable's 0.7.2 included) with the
-- built-in LSP client: diagnostics as you type, go to definition,
-- references, hover, completion, outline, formatting and rename, all from
-- `jaiph lsp`.
--
-- Use: copy this file to ~/.config/nvim/plugin/jaiph.lua (or `dofile` it
-- from init.lua). Set vim.g.jaiph_path to a jaiph binary that is not on
-- PATH, and vim.g.jaiph_format_on_save = true to run `jaiph fmt` (through
-- the server) on every write.
--
-- Only APIs Neovim 0.7 has are required; newer ones (vim.lsp.start,
-- vim.lsp.buf.format, vim.fs) are used when present.

if vim.fn.has('nvim-0.7') == 0 or not vim.api.nvim_create_autocmd then
  vim.api.nvim_echo({ { 'jaiph.lua needs Neovim 0.7 or later (this is an older one): .jh files get no Jaiph support', 'WarningMsg' } }, true, {})
  return
end

-- Filetype. vim.filetype.add is ignored by 0.7 unless its Lua filetype
-- detection is switched on, so the autocommand does it everywhere.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { jh = 'jaiph', jph = 'jaiph' } })
end
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { '*.jh', '*.jph' },
  callback = function(args)
    if vim.bo[args.buf].filetype ~= 'jaiph' then
      vim.bo[args.buf].filetype = 'jaiph'
    end
  end,
})

-- root is the workspace of file: the enclosing git repository (a .git
-- folder, or the .git file of a worktree), else the file's folder.
local function root(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local git = vim.fn.finddir('.git', dir .. ';')
  if git == '' then
    git = vim.fn.findfile('.git', dir .. ';')
  end
  if git == '' then
    return dir
  end
  return vim.fn.fnamemodify(git, ':p:h:h')
end

-- clients holds, before vim.lsp.start (0.8), one client id per workspace.
local clients = {}

local function start(buf, dir)
  local config = { name = 'jaiph', cmd = { vim.g.jaiph_path or 'jaiph', 'lsp' }, root_dir = dir }
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  local id = clients[dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
end

local function format(buf)
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = buf, name = 'jaiph' })
  else
    vim.lsp.buf.formatting_sync(nil, 2000)
  end
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'jaiph',
  callback = function(args)
    local buf = args.buf
    vim.bo[buf].commentstring = '# %s'
    -- There is no Jaiph syntax file for Vim: bodies are shell, so bash's
    -- highlighting is a fair approximation until the server's semantics.
    vim.bo[buf].syntax = 'bash'
    start(buf, root(vim.api.nvim_buf_get_name(buf)))
    if vim.g.jaiph_format_on_save then
      vim.api.nvim_create_autocmd('BufWritePre', {
        buffer = buf,
        callback = function()
          format(buf)
        end,
      })
    end
  end,
})

-- Neovim 0.11 or later can instead declare the server and let Neovim start it:
--   vim.filetype.add({ extension = { jh = 'jaiph', jph = 'jaiph' } })
--   vim.lsp.config('jaiph', { cmd = { 'jaiph', 'lsp' }, filetypes = { 'jaiph' }, root_markers = { '.git' } })
--   vim.lsp.enable('jaiph')
