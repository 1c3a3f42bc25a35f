package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// nvimCheck runs inside Neovim on the opened .jh file: it waits for the
// server's diagnostics, asks for a hover on an imported workflow and the
// document highlights of the import alias, edits
// the file again (FileType again: the plugin used to add a second format
// on save each time), writes the buffer (formatted on save) and records
// what it saw in result.txt.
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
res = vim.lsp.buf_request_sync(0, 'textDocument/documentHighlight',
  { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 10 } }, 30000)
for _, r in pairs(res or {}) do
  for _, h in ipairs(r.result or {}) do
    say('highlight ' .. h.range.start.line .. ':' .. h.range.start.character .. '-' .. h.range['end'].character .. ' kind ' .. h.kind)
  end
end
vim.cmd('edit')
say('format on save=' .. #vim.api.nvim_get_autocmds({ group = 'jaiph', event = 'BufWritePre', buffer = 0 }))
vim.cmd('write')
vim.fn.writefile(out, 'result.txt')
vim.cmd('qa!')
`

// TestNeovimPlugin loads editors/neovim/jaiph.lua into each Neovim the
// plugin is tested on (forEachNeovim: 0.7 and 0.10) and edits a .jh file:
// it gets the jaiph filetype, the server's diagnostics, a hover naming the
// import as written, the alias's document highlights, and jaiph fmt on
// save. On 0.7 the plugin used to fail
// with "attempt to index field 'fs' (a nil value)" and .jh files got no
// filetype.
func TestNeovimPlugin(t *testing.T) {
	forEachNeovim(t, testNeovimPlugin)
}

func testNeovimPlugin(t *testing.T, nvim string, _ int) {
	ws, out := runNeovim(t, nvim, map[string]string{
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
		"hover ```jaiph|workflow build {|```||lib/util.jh\n" +
		"highlight 0:24-28 kind 3\n" +
		"highlight 2:8-12 kind 1\n" +
		"format on save=1\n"
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
// action menu, types K (the hover's float) and gd (the jump, and <C-o>
// back), and records the buffers, the plugin's keys, the semantic tokens
// where the client has them (0.9 and later: the types at a few places,
// none in a string, and their highlights next to the syntax's), and the
// highlighting after :syntax on. Each step is typed after the previous
// one's keys (feedkeys queues them in order, or runs them at once with
// 'x'), so nothing waits on time but the server's answers.
const nvimEdit = `local out = {}
local function say(s) table.insert(out, s); vim.fn.writefile(out, 'result.txt') end
local function clients()
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = 0 }) end
  return vim.lsp.buf_get_clients(0)
end
local ok = vim.wait(30000, function()
  for _, c in pairs(clients()) do if c.initialized then return true end end
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
local function where() return vim.fn.expand('%:t') .. ' ' .. table.concat(vim.api.nvim_win_get_cursor(0), ':') end
local function float()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then return w end
  end
end
-- The semantic tokens' types at 4:1 (workflow), 5:3 (ensure), 5:10
-- (checks), 5:17 (min_len) and 7:13 (in the log string: none).
local places = { { 3, 0 }, { 4, 2 }, { 4, 9 }, { 4, 16 }, { 6, 12 } }
local function tokens(field)
  local got = {}
  for _, p in ipairs(places) do
    local here = {}
    if field == 'type' then
      for _, tok in ipairs(vim.lsp.semantic_tokens.get_at_pos(0, p[1], p[2]) or {}) do table.insert(here, tok.type) end
    else
      for _, tok in ipairs(vim.inspect_pos(0, p[1], p[2]).semantic_tokens) do table.insert(here, tok.opts.hl_group) end
    end
    table.insert(got, (p[1] + 1) .. ':' .. (p[2] + 1) .. '=' .. table.concat(here, ','))
  end
  return table.concat(got, ' ')
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
  -- K on text.title: the hover's float, its words only (0.7 draws the
  -- markdown with a rule under the code, 0.10 conceals the fences).
  vim.api.nvim_win_set_cursor(0, { 6, 16 })
  vim.api.nvim_feedkeys('K', 'mx', false)
  local w
  vim.wait(30000, function() w = float(); return w ~= nil end, 20)
  local shown = {}
  if w then
    for _, l in ipairs(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false)) do
      if l:find('%w') and not l:find('^%s*` + "```" + `') then table.insert(shown, l) end
    end
    vim.api.nvim_win_close(w, true)
  end
  say('K: ' .. table.concat(shown, '|'))
  vim.api.nvim_feedkeys('gd', 'mx', false)
  vim.wait(30000, function() return vim.fn.expand('%:t') ~= 'main.jh' end, 20)
  say('gd: ' .. where())
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-o>', true, false, true), 'nx', false)
  say('<C-o>: ' .. where())
  for _, k in ipairs({ 'K', 'gd', 'gr' }) do say('map ' .. k .. '=' .. tostring(vim.fn.maparg(k, 'n') ~= '')) end
  -- The client highlights the tokens of the buffer's current version when
  -- it draws (get_at_pos may still answer from an older one).
  local semantic = vim.lsp.semantic_tokens ~= nil
  if semantic then
    local want = '4:1=@lsp.type.keyword.jaiph 5:3=@lsp.type.keyword.jaiph 5:10=@lsp.type.namespace.jaiph 5:17=@lsp.type.function.jaiph 7:13='
    vim.wait(30000, function() vim.cmd('redraw'); return tokens('hl') == want end, 20)
    say('semantic ' .. tokens('type'))
    say('highlights ' .. tokens('hl'))
  end
  vim.cmd('syntax on')
  local function group(l, c) return vim.fn.synIDattr(vim.fn.synID(l, c, 1), 'name') end
  say('syntax=' .. vim.bo.syntax .. ' 4:1=' .. group(4, 1) .. ' 5:3=' .. group(5, 3) .. ' 7:8=' .. group(7, 8))
  if semantic then
    vim.cmd('redraw')
    say('highlights ' .. tokens('hl'))
  end
  vim.cmd('qa!')
end
complete(5, function() complete(6, rename) end)
`

// TestNeovimCompletionAndRename drives the real client of each Neovim
// (forEachNeovim): a completion after a module qualifier replaces the whole
// qualified word (on 0.7 it inserted "checks.checks.long_enough" and
// offered nothing for "text.ti"), a rename leaves the name inside a log
// string alone, the quick fix of a misspelt name applies through
// vim.lsp.buf.code_action, the plugin sets the omnifunc and maps K (a
// hover float) and gd (a jump <C-o> undoes), :syntax on highlights Jaiph's
// words with syntax/jaiph.vim, and where the client colours by semantic
// tokens (0.10) they land on the right words, none in a string, beside the
// syntax's highlighting.
func TestNeovimCompletionAndRename(t *testing.T) {
	forEachNeovim(t, testNeovimCompletionAndRename)
}

func testNeovimCompletionAndRename(t *testing.T, nvim string, minor int) {
	ws, out := runNeovim(t, nvim, map[string]string{
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
K: workflow title {|text.jh
gd: text.jh 1:9
<C-o>: main.jh 6:16
map K=true
map gd=true
map gr=true
`
	syntax := "syntax=jaiph 4:1=jaiphDeclaration 5:3=jaiphStep 7:8=shDoubleQuote\n"
	if minor >= 9 {
		// The semantic tokens' highlights, before and after :syntax on.
		highlights := "highlights 4:1=@lsp.type.keyword.jaiph 5:3=@lsp.type.keyword.jaiph 5:10=@lsp.type.namespace.jaiph 5:17=@lsp.type.function.jaiph 7:13=\n"
		syntax = "semantic 4:1=keyword 5:3=keyword 5:10=namespace 5:17=function 7:13=\n" + highlights + syntax + highlights
	}
	want += syntax
	if string(got) != want {
		t.Errorf("in Neovim:\n%s\nwant:\n%s\nnvim said: %s", got, want, out)
	}
}

// forEachNeovim runs test as a subtest on each Neovim the plugin is tested
// on, with its minor version:
//   - nvim-0.7: Debian stable's 0.7.2, the nvim on PATH (.ci/run installs
//     it; JAIPH_TEST_NVIM07 names another). It fails without one; another
//     version is tested too, but fails under CI=true.
//   - nvim-0.10: the nvim-0.10 on PATH (.ci/nvim-0.10.sh installs Debian
//     13's beside the system's; JAIPH_TEST_NVIM010 names another). Without
//     one it skips, loudly, and under CI=true fails; one that is not 0.10
//     fails.
func forEachNeovim(t *testing.T, test func(t *testing.T, nvim string, minor int)) {
	t.Run("nvim-0.7", func(t *testing.T) {
		nvim := os.Getenv("JAIPH_TEST_NVIM07")
		if nvim == "" {
			var err error
			if nvim, err = exec.LookPath("nvim"); err != nil {
				t.Fatal("the Neovim tests need Neovim 0.7 on PATH: apt-get install -y neovim, as .ci/run does")
			}
		}
		minor := neovimMinor(t, nvim)
		if minor != 7 {
			msg := fmt.Sprintf("%s is Neovim 0.%d, not 0.7 (Debian stable's 0.7.2; JAIPH_TEST_NVIM07 names another)", nvim, minor)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Log(msg + ": testing it anyway")
		}
		test(t, nvim, minor)
	})
	t.Run("nvim-0.10", func(t *testing.T) {
		nvim := os.Getenv("JAIPH_TEST_NVIM010")
		if nvim == "" {
			var err error
			if nvim, err = exec.LookPath("nvim-0.10"); err != nil {
				msg := "Neovim 0.10 is not installed as nvim-0.10 on PATH (.ci/nvim-0.10.sh installs Debian 13's beside the system's; JAIPH_TEST_NVIM010 names another)"
				if os.Getenv("CI") == "true" {
					t.Fatal(msg + "; CI=true forbids skipping it")
				}
				t.Skip(msg)
			}
		}
		if minor := neovimMinor(t, nvim); minor != 10 {
			t.Fatalf("%s is Neovim 0.%d, not 0.10", nvim, minor)
		}
		test(t, nvim, 10)
	})
}

var neovimVersions sync.Map // path → minor version

// neovimMinor is the minor version nvim --version reports (0.MINOR.PATCH).
func neovimMinor(t *testing.T, nvim string) int {
	t.Helper()
	if v, ok := neovimVersions.Load(nvim); ok {
		return v.(int)
	}
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", nvim, err)
	}
	m := regexp.MustCompile(`^NVIM v0\.(\d+)\.`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s --version does not start with NVIM v0.N.: %q", nvim, out)
	}
	minor, _ := strconv.Atoi(string(m[1]))
	neovimVersions.Store(nvim, minor)
	return minor
}

// runNeovim writes files into a fresh git workspace, loads the plugin into
// nvim with the test binary as jaiph, opens main.jh and runs check.lua
// there. It returns the workspace and what Neovim printed.
func runNeovim(t *testing.T, nvim string, files map[string]string, setup string) (string, []byte) {
	t.Helper()
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
	// An error in check.lua ends Neovim at once (a headless one would
	// otherwise wait for the timeout) with the error in its output.
	args = append(args, "-c", "let g:jaiph_path = '"+self+"'", "-c", "luafile "+plugin, "-c", "edit main.jh",
		"-c", "lua local ok, err = pcall(dofile, 'check.lua') if not ok then io.stderr:write('check.lua: ' .. tostring(err) .. '\\n') vim.cmd('cquit') end")
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
