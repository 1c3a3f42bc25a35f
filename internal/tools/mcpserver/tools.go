package mcpserver

// This file answers: which tools do the files offer (names, descriptions)?

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/parser"
)

// Tool is one exported workflow offered as an MCP tool.
type Tool struct {
	Name        string // the tool's name: the workflow's, or <file stem>.<workflow> when several files are served
	Workflow    string
	File        string   // the .jh file, absolute
	Description string   // the comment lines right above the declaration
	Params      []string // the positional parameters its body uses (Params)
}

// DefaultFiles are the files `jaiph mcp` serves without arguments: the .jh
// files of the workspace's .jaiph directory, then of the workspace root
// (dir's workspace, docs/run-directory.md#where-runs-go), test files left out.
func DefaultFiles(dir string) []string {
	ws := runs.WorkspaceRoot(dir)
	var files []string
	for _, d := range []string{filepath.Join(ws, ".jaiph"), ws} {
		matches, _ := filepath.Glob(filepath.Join(d, "*.jh"))
		sort.Strings(matches)
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() && !parser.IsTestFile(m) {
				files = append(files, m)
			}
		}
	}
	return files
}

// Tools compiles each file and lists its exported workflows. A file that
// does not compile is an error when strict (files the user named);
// otherwise it is reported to warn and left out (files found by
// DefaultFiles, where one broken file must not hide the others).
func Tools(files []string, strict bool, warn func(error)) ([]Tool, error) {
	var tools []Tool
	for _, file := range files {
		prog, err := engine.Open(file)
		if _, serr := os.Stat(file); serr != nil {
			err = fmt.Errorf("no such file: %s", file) // not engine.Open's "jaiph run: …"
		}
		if err != nil {
			if strict {
				return nil, err
			}
			warn(err)
			continue
		}
		src, err := os.ReadFile(prog.Path)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(string(src), "\n")
		for _, it := range prog.Checked.Entry.Items {
			if w, ok := it.(*ast.Workflow); ok && w.Exported {
				body := lines[min(w.Pos.Line, len(lines)):min(w.End.Line, len(lines))]
				tools = append(tools, Tool{Name: w.Name, Workflow: w.Name, File: prog.Path,
					Description: describe(prog.Checked.Entry.Items, w, prog.Source), Params: Params(body)})
			}
		}
	}
	seen := map[string]string{}
	for i := range tools {
		if len(files) > 1 {
			tools[i].Name = toolStem(tools[i].File) + "." + tools[i].Workflow
		}
		if other, dup := seen[tools[i].Name]; dup {
			return nil, fmt.Errorf("two tools would be called %s (%s and %s): name the files to serve", tools[i].Name, other, tools[i].File)
		}
		seen[tools[i].Name] = tools[i].File
	}
	return tools, nil
}

// describe is the text of the `#` lines directly above w (no blank line
// between), without the `#` and one space; "Jaiph workflow NAME of FILE."
// when there are none.
func describe(items []ast.Item, w *ast.Workflow, source string) string {
	var lines []string
	line := w.Pos.Line
	for i := len(items) - 1; i >= 0; i-- {
		if items[i] != ast.Item(w) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			c, ok := items[j].(*ast.Comment)
			if !ok || c.Pos.Line != line-1 || strings.HasPrefix(c.Text, "#!") {
				break
			}
			lines = append([]string{strings.TrimPrefix(strings.TrimPrefix(c.Text, "#"), " ")}, lines...)
			line = c.Pos.Line
		}
		break
	}
	if len(lines) == 0 {
		return fmt.Sprintf("Jaiph workflow %s of %s.", w.Name, source)
	}
	return strings.Join(lines, "\n")
}

// toolStem is a file's name without its extension, in the characters MCP
// allows in tool names (A-Z a-z 0-9 _ - .); others become _.
func toolStem(file string) string {
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, stem)
}
