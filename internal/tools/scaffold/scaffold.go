package scaffold

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/internal/observe/progress"
)

// SkillGuide is the agent guide written to .jaiph/jaiph-skill.md unless
// JAIPH_SKILL_PATH names another one.
//
//go:embed jaiph-skill.md
var SkillGuide []byte

// BootstrapRel and SkillRel are the two files' paths in the workspace.
var (
	BootstrapRel = filepath.Join(".jaiph", "bootstrap.jh")
	SkillRel     = filepath.Join(".jaiph", "jaiph-skill.md")
)

// BootstrapWorkflow is .jaiph/bootstrap.jh as the reference writes it.
const BootstrapWorkflow = `#!/usr/bin/env jaiph

# Bootstraps Jaiph workflows for this repository.
workflow default {
  prompt "
    You are bootstrapping Jaiph for this repository.
    First, read the Jaiph agent bootstrap guide at:
    .jaiph/jaiph-skill.md
    Follow that guide and Jaiph language rules exactly.
    Perform these tasks in order:
    1) Analyze repository structure, languages, package manager, and build/test/lint commands.
    2) Detect existing contribution conventions (branching, commit style, CI checks).
    3) Create or update Jaiph workflows under .jaiph/ for safe feature implementation, including:
       - preflight checks (clean git state, branch guards when relevant)
       - implementation workflow
       - verification workflow (tests/lint/build)
    4) Keep workflows minimal, composable, and specific to this project.
    5) Print a short usage guide with exact jaiph run commands.
  "
}
`

// Run is `jaiph init dir`: Init, with the reference's report written to w.
// The error is the message to show.
func Run(dir string, skill []byte, w io.Writer, s *progress.Style) error {
	root, err := filepath.Abs(dir)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(root); err == nil && !st.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return fmt.Errorf("jaiph init expects a directory path, got: %s", dir)
	}
	fmt.Fprintf(w, "\nJaiph init\n\n")
	fmt.Fprintln(w, s.Dim(fmt.Sprintf("▸ Creating %s in %s...", BootstrapRel, root)))
	created, err := Init(root, skill)
	if err != nil {
		return fmt.Errorf("jaiph init: %v", err)
	}
	fmt.Fprintln(w, s.Green("✓ Initialized "+BootstrapRel))
	if !created {
		fmt.Fprintln(w, s.Dim("▸ Note: bootstrap file already existed; left unchanged."))
	}
	fmt.Fprintln(w, s.Green("✓ Synced "+SkillRel))
	fmt.Fprint(w, "\nTry:\n  ./.jaiph/bootstrap.jh\n\n")
	fmt.Fprintln(w, "This asks an agent to analyze the project and scaffold recommended workflows.")
	fmt.Fprint(w, "Tip: add `.jaiph/` to `.gitignore`.\n\n")
	return nil
}

// Init prepares root: .jaiph/bootstrap.jh is created (kept when it exists,
// made executable either way) and the guide (skill) is always rewritten.
// created reports whether the bootstrap file is new.
func Init(root string, skill []byte) (created bool, err error) {
	if err := os.MkdirAll(filepath.Join(root, ".jaiph"), 0o755); err != nil {
		return false, err
	}
	bootstrap := filepath.Join(root, BootstrapRel)
	if _, err := os.Lstat(bootstrap); os.IsNotExist(err) {
		if err := os.WriteFile(bootstrap, []byte(BootstrapWorkflow), 0o755); err != nil {
			return false, err
		}
		created = true
	}
	if err := os.Chmod(bootstrap, 0o755); err != nil {
		return created, err
	}
	return created, os.WriteFile(filepath.Join(root, SkillRel), skill, 0o644)
}

// Skill is the guide to install: the file at path when it names a readable
// regular file (JAIPH_SKILL_PATH), else the embedded one.
func Skill(path string) []byte {
	if path != "" {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			if data, err := os.ReadFile(path); err == nil {
				return data
			}
		}
	}
	return SkillGuide
}
