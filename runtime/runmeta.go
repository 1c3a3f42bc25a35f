package runtime

// This file answers: what does a run leave for `jaiph runs` and resume
// (its metadata, its lock, its end)?

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// startRecord locks the new run dir and writes its metadata, before the
// first step. Test runs (jaiph test) are not resumable and record nothing.
func (rt *Runtime) startRecord(dir string, start time.Time) error {
	if rt.opts.TestMode || rt.opts.Ephemeral {
		return nil
	}
	lock, err := runs.Lock(dir)
	if err != nil {
		return fmt.Errorf("cannot lock run directory %s: %w", dir, err)
	}
	rt.lock, rt.records = lock, runs.RecordsDir(dir)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(rt.opts.Modules))
	for _, m := range rt.opts.Modules {
		paths = append(paths, m.Path)
	}
	mods, err := runs.HashModules(paths)
	if err != nil {
		return err
	}
	args := append([]string{}, rt.args...)
	masked := rt.redact.Strings(args)
	workflow := rt.opts.Workflow
	if workflow == "default" {
		workflow = ""
	}
	return runs.WriteMeta(rt.records, &runs.Meta{Version: runs.MetaVersion, RunID: rt.runID, Entry: rt.opts.Entry.Path, RunDir: realDir,
		Source: rt.opts.SourceFile, Args: args, ArgsRedacted: masked, Workspace: rt.opts.Workspace, Start: start.UTC(), PID: rt.pid,
		Settings: runs.Settings(rt.opts.Environ), Modules: mods, Workflow: workflow})
}

// End records how the run ended (run.end): interrupted when sig is not
// "", else passed or failed. Nothing when no step ran or in test mode.
func (rt *Runtime) End(failed bool, exitCode int, sig string) error {
	if rt.lock == nil {
		return nil
	}
	e := &runs.End{Status: runs.Passed, ExitCode: exitCode, Signal: sig, End: time.Now().UTC()}
	switch {
	case sig != "":
		e.Status = runs.Interrupted
	case failed:
		e.Status = runs.Failed
	}
	return runs.WriteEnd(rt.records, e)
}

// unlock lets go of the run's lock (Close): the run is no longer live.
func (rt *Runtime) unlock() {
	if rt.lock != nil {
		rt.lock.Close()
	}
}
