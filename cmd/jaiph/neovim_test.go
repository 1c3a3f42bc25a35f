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
// (Debian stable's 0.7.2 in CI: .ci/run installs it) and edits a .jh file:
// it gets the jaiph filetype, the server's diagnostics, a hover naming the
// import as written, and jaiph fmt on save. On 0.7 the plugin used to fail
// with "attempt to index field 'fs' (a nil value)" and .jh files got no
// filetype.
func TestNeovimPlugin(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("TestNeovimPlugin needs Neovim (0.7 or later) on PATH: apt-get install -y neovim, as .ci/run does")
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
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write("lib/util.jh", "workflow build {\n  echo b\n}\n")
	write("main.jh", "import \"lib/util.jh\" as util\nworkflow default {\n    run util.build\n  run missing\n}\n")
	write("check.lua", nvimCheck)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean",
		"-c", "let g:jaiph_format_on_save = v:true",
		"-c", "let g:jaiph_path = '"+self+"'",
		"-c", "luafile "+plugin,
		"-c", "edit main.jh",
		"-c", "luafile check.lua")
	cmd.Dir = ws
	// The test binary acts as jaiph (TestMain); HOME keeps Neovim's state here.
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "HOME="+ws, "XDG_STATE_HOME="+ws, "XDG_DATA_HOME="+ws)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(ws, "result.txt"))
	if err != nil {
		t.Fatalf("the check did not finish: %v\nnvim said: %s", err, out)
	}
	want := "filetype=jaiph\n" +
		"diagnostics=true\n" +
		"diag 4:3 unknown local workflow or function reference \"missing\"\n" +
		"hover ```jaiph|workflow build {|```||lib/util.jh\n"
	if string(got) != want {
		t.Errorf("in Neovim:\n%s\nwant:\n%s\nnvim said: %s", got, want, out)
	}
	formatted, _ := os.ReadFile(filepath.Join(ws, "main.jh"))
	if !strings.Contains(string(formatted), "as util\n\nworkflow default {\n  run util.build\n") {
		t.Errorf("main.jh after a write with format on save:\n%s", formatted)
	}
}
