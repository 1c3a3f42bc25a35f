package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordsDir: a run's records are never in its run directory (whose
// listing is the reference's), live in the .jaiph of the workspace holding
// the run, or beside a run directory in no workspace, and are the same for
// every spelling of the run directory's path.
func TestRecordsDir(t *testing.T) {
	ws := t.TempDir()
	must(t, os.Mkdir(filepath.Join(ws, ".git"), 0o755))
	for _, runDir := range []string{
		filepath.Join(ws, ".jaiph", "runs", "2026-01-02", "10-00-00-a.jh"),
		filepath.Join(ws, "build", "logs", "2026-01-02", "10-00-00-a.jh"), // run.logs_dir in the workspace
	} {
		must(t, os.MkdirAll(runDir, 0o755))
		got := RecordsDir(runDir)
		if want := filepath.Join(ws, ".jaiph", "state", "runs") + string(filepath.Separator); !strings.HasPrefix(got, want) ||
			!strings.HasSuffix(got, "-10-00-00-a.jh") {
			t.Errorf("RecordsDir(%s) = %s, want %s<key>-10-00-00-a.jh", runDir, got, want)
		}
		rel, _ := filepath.Rel(ws, runDir)
		wd, _ := os.Getwd()
		must(t, os.Chdir(ws))
		relGot := RecordsDir(rel)
		must(t, os.Chdir(wd))
		if relGot != got {
			t.Errorf("RecordsDir(%s) = %s, but %s from the absolute path", rel, relGot, got)
		}
	}
	if a, b := RecordsDir(filepath.Join(ws, ".jaiph", "runs", "d", "x")), RecordsDir(filepath.Join(ws, "build", "logs", "d", "x")); a == b {
		t.Errorf("two run directories share the records %s", a)
	}
	outside := filepath.Join(t.TempDir(), "runs", "2026-01-02", "10-00-00-a.jh")
	if got := RecordsDir(outside); !strings.HasPrefix(got, filepath.Join(filepath.Dir(outside), ".jaiph", "state", "runs")) {
		t.Errorf("RecordsDir of a run in no workspace = %s, want beside it", got)
	}
}

// TestWriteMetaStartsFresh: records left at a run directory's path by a
// deleted run of the same name (same second, same file) are gone once a
// new run writes its metadata, so a fresh run never replays an old journal.
func TestWriteMetaStartsFresh(t *testing.T) {
	ws := t.TempDir()
	runDir := filepath.Join(ws, ".jaiph", "runs", "2026-01-02", "10-00-00-a.jh")
	must(t, os.MkdirAll(runDir, 0o755))
	write(t, Record(runDir, JournalFile), `{"t":"start","id":"/x"}`+"\n")
	write(t, Record(runDir, EndFile), `{"status":"passed"}`)
	must(t, WriteMeta(RecordsDir(runDir), &Meta{Version: MetaVersion, RunID: "new"}))
	for _, name := range []string{JournalFile, EndFile} {
		if _, err := os.Stat(Record(runDir, name)); !os.IsNotExist(err) {
			t.Errorf("%s of the deleted run survived WriteMeta: %v", name, err)
		}
	}
	if entries, _ := os.ReadDir(runDir); len(entries) != 0 {
		t.Errorf("the run directory holds %d records, want none", len(entries))
	}
}

// TestMetaEnviron: the run's JAIPH_* settings replace the caller's; a
// setting recorded as a hash comes from the caller or is left out.
func TestMetaEnviron(t *testing.T) {
	m := &Meta{Settings: []Setting{{Key: "JAIPH_AGENT_MODEL", Value: "opus"}, {Key: "JAIPH_API_KEY", Value: "sha256:ab"},
		{Key: "JAIPH_TOKEN", Value: "sha256:cd"}}}
	got := m.Environ([]string{"PATH=/bin", "JAIPH_DEBUG=true", "JAIPH_API_KEY=mine", "JAIPH_EXTRA=x"})
	if want := "PATH=/bin JAIPH_API_KEY=mine JAIPH_AGENT_MODEL=opus"; strings.Join(got, " ") != want {
		t.Errorf("environ = %q, want %q", strings.Join(got, " "), want)
	}
}
