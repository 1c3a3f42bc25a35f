-- Jaiph in Neovim (0.8 or later) with the built-in LSP client: diagnostics
-- as you type, go to definition, references, hover, completion, outline,
-- formatting and rename, all from `jaiph lsp`.
--
-- Use: copy this file to ~/.config/nvim/plugin/jaiph.lua (or `dofile` it
-- from init.lua). Set vim.g.jaiph_path to a jaiph binary that is not on
-- PATH, and vim.g.jaiph_format_on_save = true to run `jaiph fmt` (through
-- the server) on every write.

vim.filetype.add({ extension = { jh = 'jaiph', jph = 'jaiph' } })

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'jaiph',
  callback = function(args)
    local buf = args.buf
    vim.bo[buf].commentstring = '# %s'
    -- There is no Jaiph syntax file for Vim: bodies are shell, so bash's
    -- highlighting is a fair approximation until the server's semantics.
    vim.bo[buf].syntax = 'bash'

    -- The workspace is the enclosing git repository, else the file's folder.
    local file = vim.api.nvim_buf_get_name(buf)
    local git = vim.fs.find('.git', { upward = true, path = vim.fs.dirname(file) })[1]
    vim.lsp.start({
      name = 'jaiph',
      cmd = { vim.g.jaiph_path or 'jaiph', 'lsp' },
      root_dir = git and vim.fs.dirname(git) or vim.fs.dirname(file),
    }, { bufnr = buf })

    if vim.g.jaiph_format_on_save then
      vim.api.nvim_create_autocmd('BufWritePre', {
        buffer = buf,
        callback = function()
          vim.lsp.buf.format({ bufnr = buf, name = 'jaiph' })
        end,
      })
    end
  end,
})

-- Neovim 0.11 or later can instead declare the server and let Neovim start it:
--   vim.filetype.add({ extension = { jh = 'jaiph', jph = 'jaiph' } })
--   vim.lsp.config('jaiph', { cmd = { 'jaiph', 'lsp' }, filetypes = { 'jaiph' }, root_markers = { '.git' } })
--   vim.lsp.enable('jaiph')
