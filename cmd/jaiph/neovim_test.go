package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimCheck runs inside Neovim on the opened .jh file: it waits for the
// server's diagnostics, asks for a hover on an imported workflow, writes
// the buffer (formatted on save) and records what it saw in result.txt.
const nvimCheck = `local out = {}
local function say(s) table.insert(out, s) end
say('filetype=' .. vim.bo.filetype)
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
say('diagnostics=' .. tostring(ok))
for _, d in ipairs(vim.diagnostic.get(0)) do say('diag ' .. (d.lnum + 1) .. ':' .. (d.col + 1) .. ' ' .. d.message) end
local res = vim.lsp.buf_request_sync(0, 'textDocument/hover',
  { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 15 } }, 30000)
for _, r in pairs(res or {}) do
  if r.result then say('hover ' .. r.result.contents.value:gsub('\n', '|')) end
end
vim.cmd('write')
vim.fn.writefile(out, 'result.txt')
vim.cmd('qa!')
`

// TestNeovimPlugin loads editors/neovim/jaiph.lua into the Neovim on PATH
// and edits a .jh file:
// it gets the jaiph filetype, the server's diagnostics, a hover naming the
// import as written, and jaiph fmt on save. On 0.7 the plugin used to fail
// with "attempt to index field 'fs' (a nil value)" and .jh files got no
// filetype.
func TestNeovimPlugin(t *testing.T) {
	ws, out := runNeovim(t, map[string]string{
		"lib/util.jh": "workflow build {\n  echo b\n}\n",
		"main.jh":     "import \"lib/util.jh\" as util\nworkflow default {\n    run util.build\n  run missing\n}\n",
		"check.lua":   nvimCheck,
	}, "let g:jaiph_format_on_save = v:true")
	got, err := os.ReadFile(filepath.Join(ws, "result.txt"))
	if err != nil {
		t.Fatalf("the check did not finish: %v\nnvim said: %s", err, out)
	}
	want := "filetype=jaiph\n" +
		"diagnostics=true\n" +
		"diag 4:7 unknown local workflow or function reference \"missing\"\n" +
		"hover ```jaiph|workflow build {|```||lib/util.jh\n"
	if string(got) != want {
		t.Errorf("in Neovim:\n%s\nwant:\n%s\nnvim said: %s", got, want, out)
	}
	formatted, _ := os.ReadFile(filepath.Join(ws, "main.jh"))
	if !strings.Contains(string(formatted), "as util\n\nworkflow default {\n  run util.build\n") {
		t.Errorf("main.jh after a write with format on save:\n%s", formatted)
	}
}

// nvimEdit runs inside Neovim on main.jh: it completes at the end of two
// lines with the real omnifunc the plugin sets (<C-x><C-o>, the only
// candidate taken), renames the imported rule with vim.lsp.buf.rename, then
// applies the quick fix of a "Did you mean" through the client's code
// action menu, and records the buffers, the plugin's keys, and the
// highlighting after
// :syntax on. Each step is typed after the previous one's keys (feedkeys
// queues them in order), so nothing waits on time but the server's answers.
const nvimEdit = `local out = {}
local function say(s) table.insert(out, s); vim.fn.writefile(out, 'result.txt') end
local ok = vim.wait(30000, function()
  for _, c in pairs(vim.lsp.buf_get_clients(0)) do if c.initialized then return true end end
  return false
end, 20)
say('attached=' .. tostring(ok) .. ' omnifunc=' .. vim.bo.omnifunc)
vim.o.completeopt = 'menu'
local function complete(line, next)
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  JaiphNext = function()
    say('completed ' .. line .. ': ' .. vim.fn.getline(line))
    next()
  end
  vim.api.nvim_create_autocmd('CompleteDone', { once = true, callback = function()
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Esc>:lua JaiphNext()<CR>', true, false, true), 'n', false)
  end })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A<C-x><C-o>', true, false, true), 'n', false)
end
local function rename()
  vim.api.nvim_win_set_cursor(0, { 5, 18 })
  vim.lsp.buf.rename('min_len')
  local done = vim.wait(30000, function() return vim.fn.getline(5):find('min_len') ~= nil end, 20)
  say('renamed=' .. tostring(done))
  for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, 7, false)) do say('main.jh ' .. i .. ': ' .. l) end
  local other = vim.fn.bufnr(vim.fn.fnamemodify('checks.jh', ':p'))
  for i, l in ipairs(vim.api.nvim_buf_get_lines(other, 0, -1, false)) do say('checks.jh ' .. i .. ': ' .. l) end
  -- The quick fix of line 8's "Did you mean", chosen from the real menu.
  vim.wait(30000, function() return #vim.diagnostic.get(0, { lnum = 7 }) > 0 end, 20)
  vim.ui.select = function(items, opts, choose)
    for i, it in ipairs(items) do
      local action = it[2] or it.action or it
      if action.title and action.title:find('Change to') then return choose(it, i) end
    end
    choose(nil, nil)
  end
  vim.api.nvim_win_set_cursor(0, { 8, 8 })
  vim.lsp.buf.code_action()
  vim.wait(30000, function() return vim.fn.getline(8):find('title') ~= nil end, 20)
  say('fixed 8: ' .. vim.fn.getline(8))
  for _, k in ipairs({ 'K', 'gd', 'gr' }) do say('map ' .. k .. '=' .. tostring(vim.fn.maparg(k, 'n') ~= '')) end
  vim.cmd('syntax on')
  local function group(l, c) return vim.fn.synIDattr(vim.fn.synID(l, c, 1), 'name') end
  say('syntax=' .. vim.bo.syntax .. ' 4:1=' .. group(4, 1) .. ' 5:3=' .. group(5, 3) .. ' 7:8=' .. group(7, 8))
  vim.cmd('qa!')
end
complete(5, function() complete(6, rename) end)
`

// TestNeovimCompletionAndRename drives the real client of Neovim 0.7: a
// completion after a module qualifier replaces the whole qualified word
// (it inserted "checks.checks.long_enough" and offered nothing for
// "text.ti"), a rename leaves the name inside a log string alone, the
// quick fix of a misspelt name applies through vim.lsp.buf.code_action, the
// plugin maps K/gd/gr and sets the omnifunc, and :syntax on highlights
// Jaiph's words with syntax/jaiph.vim.
func TestNeovimCompletionAndRename(t *testing.T) {
	ws, out := runNeovim(t, map[string]string{
		"checks.jh": "rule long_enough {\n  true\n}\n",
		"text.jh":   "workflow title {\n  echo t\n}\n",
		"main.jh":   "import \"checks.jh\" as checks\nimport \"text.jh\" as text\n\nworkflow default {\n  ensure checks.\n  t = run text.ti\n  log \"is checks.long_enough ok\"\n  run text.titel\n}\n",
		"check.lua": nvimEdit,
	}, "")
	got, err := os.ReadFile(filepath.Join(ws, "result.txt"))
	if err != nil {
		t.Fatalf("the edit did not finish: %v\nnvim said: %s", err, out)
	}
	want := `attached=true omnifunc=v:lua.vim.lsp.omnifunc
completed 5:   ensure checks.long_enough
completed 6:   t = run text.title
renamed=true
main.jh 1: import "checks.jh" as checks
main.jh 2: import "text.jh" as text
main.jh 3: 
main.jh 4: workflow default {
main.jh 5:   ensure checks.min_len
main.jh 6:   t = run text.title
main.jh 7:   log "is checks.long_enough ok"
checks.jh 1: rule min_len {
checks.jh 2:   true
checks.jh 3: }
fixed 8:   run text.title
map K=true
map gd=true
map gr=true
syntax=jaiph 4:1=jaiphDeclaration 5:3=jaiphStep 7:8=shDoubleQuote
`
	if string(got) != want {
		t.Errorf("in Neovim:\n%s\nwant:\n%s\nnvim said: %s", got, want, out)
	}
}

// runNeovim writes files into a fresh git workspace, loads the plugin into
// the Neovim on PATH (Debian stable's 0.7.2 in CI: .ci/run installs it) with
// the test binary as jaiph, opens main.jh and runs check.lua there. It
// returns the workspace and what Neovim printed.
func runNeovim(t *testing.T, files map[string]string, setup string) (string, []byte) {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("the Neovim tests need Neovim (0.7 or later) on PATH: apt-get install -y neovim, as .ci/run does")
	}
	plugin, err := filepath.Abs("../../editors/neovim/jaiph.lua")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for name, text := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"--headless", "--clean"}
	if setup != "" {
		args = append(args, "-c", setup)
	}
	args = append(args, "-c", "let g:jaiph_path = '"+self+"'", "-c", "luafile "+plugin, "-c", "edit main.jh", "-c", "luafile check.lua")
	cmd := exec.CommandContext(ctx, nvim, args...)
	cmd.Dir = ws
	// The test binary acts as jaiph (TestMain); HOME keeps Neovim's state here.
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "HOME="+ws, "XDG_STATE_HOME="+ws, "XDG_DATA_HOME="+ws)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	return ws, out
}
