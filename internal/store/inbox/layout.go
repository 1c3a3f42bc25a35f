package inbox

// This file answers: what is each file of a run's inbox called? Every
// name of docs/inbox-files.md is built here and nowhere else: the writers
// (the file inbox, the broker's copy of its messages) and the readers
// (jaiph inbox, jaiph runs, the FAIL block, redrive) all take it from here.

import (
	"fmt"
	"path/filepath"
)

// Dir is the inbox's directory in the run directory.
const Dir = "inbox"

const (
	queueFile      = ".queue"      // the first orchestrator's journal; nested ones add -<step seq>
	deliveriesFile = ".deliveries" // the delivery log
	deadDir        = "dead"        // dead letters: links to their message files
	seqFile        = ".seq"        // the last message number, when the run ends
	tmpDir         = ".tmp"        // a send's content before its commit
)

// Number is message n's number as files and events show it: 3 digits,
// more past 999.
func Number(n int) string { return fmt.Sprintf("%03d", n) }

// MessageFile is the name of message seq's file: NNN-<channel>.txt, after
// the channel's declared name.
func MessageFile(seq, channel string) string { return seq + "-" + channel + ".txt" }

// journalFile is the journal of an orchestrator: the run's first writes
// .queue, the others .queue-<their step number> (D6).
func journalFile(first bool, stepSeq int) string {
	if first {
		return queueFile
	}
	return fmt.Sprintf("%s-%06d", queueFile, stepSeq)
}

// DeadLetterFiles counts the files in runDir's inbox/dead/ (jaiph runs
// notes them without reading the delivery log).
func DeadLetterFiles(runDir string) int {
	dead, _ := filepath.Glob(filepath.Join(runDir, Dir, deadDir, "*.txt"))
	return len(dead)
}
