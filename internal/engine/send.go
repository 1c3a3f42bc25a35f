package engine

// This file answers: how does `jaiph send RUN CHANNEL [PAYLOAD]` put a
// message on a channel a run receives on (docs/cli.md#jaiph-send)?

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// SendOptions is one `jaiph send`.
type SendOptions struct {
	Run       string // a run directory or a run id
	Channel   string // the channel's declared name
	Key       string
	Payload   string
	Workspace string    // where a run id is looked up (its runs root)
	Environ   []string  // JAIPH_RUNS_DIR, the key store
	Force     bool      // send although the run directory does not verify
	Stdin     io.Reader // the payload when args give none
	Stdout    io.Writer // where the stored message is reported
}

// SendHelp is `jaiph send`'s help text.
const SendHelp = `Store PAYLOAD (stdin when absent) as a message on CHANNEL of RUN (a run directory or a
run id of the workspace), for the run's receive (x = <- CHANNEL, docs/language.md#receives).
A live run waiting on it wakes; a run killed while waiting receives it when resumed.
Refused (exit 1): a channel the run does not receive on, a run that has ended, a run
directory that does not verify (--force sends anyway).`

// SendCommand is ` + "`jaiph send RUN CHANNEL [PAYLOAD]`" + `: args are the
// command's arguments.
func SendCommand(o SendOptions, args []string, workspace string, environ []string) error {
	o.Run, o.Channel, o.Workspace, o.Environ = args[0], args[1], workspace, environ
	if len(args) > 2 {
		o.Payload = args[2]
	} else {
		b, err := io.ReadAll(o.Stdin)
		if err != nil {
			return err
		}
		o.Payload = string(b)
	}
	dir, name, err := Send(o)
	if err == nil {
		_, err = fmt.Fprintf(o.Stdout, "sent %s to %s\n", name, dir)
	}
	return err
}

// Send stores a message for the run's receive on the channel: the live
// run wakes and takes it; a killed run's resume does. It returns the
// run directory and the message file's name.
func Send(o SendOptions) (string, string, error) {
	dir, err := sendRunDir(o)
	if err != nil {
		return "", "", err
	}
	if !inbox.ReceivesOn(dir, o.Channel) {
		chs := inbox.ReceivedChannels(dir)
		hint := "it receives on no channel"
		if len(chs) > 0 {
			hint = "it receives on " + strings.Join(chs, ", ")
		}
		return "", "", fmt.Errorf("run %s does not receive on channel %q (%s)", dir, o.Channel, hint)
	}
	r, ok := runs.Read(dir, time.Now())
	if !ok {
		return "", "", fmt.Errorf("%s is not a run directory", dir)
	}
	if st := r.Status; st == runs.Passed || st == runs.Failed {
		return "", "", fmt.Errorf("run %s has ended (%s); a message would never be received", dir, st)
	}
	if !o.Force {
		if err := trusted(dir, keyStore("", o.Environ), "sends"); err != nil {
			return "", "", err
		}
	}
	name, err := inbox.PutReceived(dir, o.Channel, o.Key, o.Payload, nil)
	return dir, name, err
}

// sendRunDir is the run directory o.Run names: a directory, else the run
// of the workspace's runs root with that id.
func sendRunDir(o SendOptions) (string, error) {
	if st, err := os.Stat(o.Run); err == nil && st.IsDir() {
		return filepath.Abs(o.Run)
	}
	root := runs.Root(o.Workspace, lastValue(o.Environ, "JAIPH_RUNS_DIR"))
	list, err := runs.List(root, time.Now())
	if err != nil {
		return "", err
	}
	for _, r := range list {
		if r.RunID == o.Run {
			return r.Dir, nil
		}
	}
	return "", fmt.Errorf("no run directory or run id %q (runs under %s)", o.Run, root)
}
