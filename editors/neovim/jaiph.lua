-- Jaiph in Neovim (0.7 or later: Debian stable's 0.7.2 included) with the
-- built-in LSP client: diagnostics as you type, go to definition,
-- references, hover, completion, outline, formatting and rename, all from
-- `jaiph lsp`.
--
-- Use: copy this file to ~/.config/nvim/plugin/jaiph.lua and
-- syntax/jaiph.vim to ~/.config/nvim/syntax/ (or `dofile` this file from
-- the checkout: its syntax folder is then found beside it). Set
-- vim.g.jaiph_path to a jaiph binary that is not on PATH, and
-- vim.g.jaiph_format_on_save = true to run `jaiph fmt` (through the server)
-- on every write.
--
-- A .jh buffer gets LSP completion as its omnifunc (<C-x><C-o>) and the
-- usual keys: K hover, gd definition, gr references, <leader>rn rename,
-- <leader>ca code actions (set vim.g.jaiph_no_keymaps = true to keep yours).
--
-- Only APIs Neovim 0.7 has are required; newer ones (vim.filetype.add,
-- vim.lsp.start, vim.lsp.buf.format) are used when present. Tested on 0.7.2
-- and 0.10 (cmd/jaiph/neovim_test.go). Its autocommands are in the augroup
-- "jaiph": loading the file again replaces them.

if vim.fn.has('nvim-0.7') == 0 or not vim.api.nvim_create_autocmd then
  vim.api.nvim_echo({ { 'jaiph.lua needs Neovim 0.7 or later (this is an older one): .jh files get no Jaiph support', 'WarningMsg' } }, true, {})
  return
end

-- Filetype. vim.filetype.add is ignored by 0.7 unless its Lua filetype
-- detection is switched on, so the autocommand does it everywhere.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { jh = 'jaiph', jph = 'jaiph' } })
end
local group = vim.api.nvim_create_augroup('jaiph', { clear = true })
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = { '*.jh', '*.jph' },
  callback = function(args)
    if vim.bo[args.buf].filetype ~= 'jaiph' then
      vim.bo[args.buf].filetype = 'jaiph'
    end
  end,
})

-- The syntax file beside this one (a checkout's editors/neovim) goes on
-- 'runtimepath', so that :syntax on finds it too.
local here = debug.getinfo(1, 'S').source:match('^@(.*)[/\\][^/\\]*$')
if here and vim.fn.filereadable(here .. '/syntax/jaiph.vim') == 1 then
  vim.opt.runtimepath:append(here)
end

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
  group = group,
  pattern = 'jaiph',
  callback = function(args)
    local buf = args.buf
    vim.bo[buf].commentstring = '# %s'
    -- syntax/jaiph.vim (bash with Jaiph's words on top), else bash's.
    if #vim.api.nvim_get_runtime_file('syntax/jaiph.vim', false) == 0 then
      vim.bo[buf].syntax = 'bash'
    end
    vim.bo[buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
    if not vim.g.jaiph_no_keymaps then
      local function map(lhs, rhs, desc)
        vim.keymap.set('n', lhs, rhs, { buffer = buf, silent = true, desc = desc })
      end
      map('K', vim.lsp.buf.hover, 'Jaiph: hover')
      map('gd', vim.lsp.buf.definition, 'Jaiph: go to definition')
      map('gr', vim.lsp.buf.references, 'Jaiph: references')
      map('<leader>rn', vim.lsp.buf.rename, 'Jaiph: rename')
      map('<leader>ca', vim.lsp.buf.code_action, 'Jaiph: code actions')
    end
    start(buf, root(vim.api.nvim_buf_get_name(buf)))
    -- FileType comes again on :edit or :set filetype: one format a write.
    vim.api.nvim_clear_autocmds({ group = group, event = 'BufWritePre', buffer = buf })
    if vim.g.jaiph_format_on_save then
      vim.api.nvim_create_autocmd('BufWritePre', {
        group = group,
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
