package chain

// This file answers: where is a run's key, and how is a run sealed?

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Store is the key store: a directory holding one file per run, named by
// the run's id, with the run's key and, once the run has ended, its seal.
type Store struct{ Dir string }

// ErrNoKey is returned by Load when the store has no key for the run.
var ErrNoKey = errors.New("no key")

// StoreDir is the key store of an environment (getenv looks a variable
// up): $JAIPH_KEY_DIR, else $XDG_STATE_HOME/jaiph/keys (an absolute
// XDG_STATE_HOME), else $HOME/.local/state/jaiph/keys. The error says why
// there is none (no HOME).
func StoreDir(getenv func(string) string) (string, error) {
	if d := getenv("JAIPH_KEY_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "jaiph", "keys"), nil
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "jaiph", "keys"), nil
	}
	return "", errors.New("no key store: neither JAIPH_KEY_DIR, XDG_STATE_HOME nor HOME is set")
}

// Outside is the store when its directory is outside workspace, else no
// store and why: a body could rewrite a key kept in its workspace, and a
// repository could carry it off.
func (s Store) Outside(workspace string) (Store, error) {
	if s.Dir == "" || workspace == "" {
		return s, nil
	}
	if rel, err := filepath.Rel(workspace, s.Dir); err == nil && filepath.IsLocal(rel) || rel == "." {
		return Store{}, fmt.Errorf("the key store %s is inside the workspace; set JAIPH_KEY_DIR", s.Dir)
	}
	return s, nil
}

// Key is a run's secret: 32 random bytes.
type Key struct{ b []byte }

// Seal is what a run that ended recorded of its files: the lines of each
// and the MAC of its last line, itself MACed with the run's key.
type Seal struct {
	Summary Mark   `json:"summary"`
	Journal Mark   `json:"journal"`
	MAC     string `json:"mac"`
}

// Mark is where a chained file stands: its line count and its last line's
// MAC (hex; "" before the first line).
type Mark struct {
	Lines int    `json:"lines"`
	MAC   string `json:"mac"`
}

// keyFile is the key store's file of one run.
type keyFile struct {
	Version int    `json:"version"`
	RunID   string `json:"run_id"`
	Key     string `json:"key"`
	Seal    *Seal  `json:"seal,omitempty"`
	// Forced is the verdict on the run's files when a resume or redrive
	// went on with them all the same (--force): it stays, since going on
	// takes the seal that told it away.
	Forced *Result `json:"forced,omitempty"`

	key []byte
}

// path is the key file of run id; the id must be a plain name (a run's id
// comes from run.json, which a workflow can edit).
func (s Store) path(runID string) (string, error) {
	if s.Dir == "" {
		return "", errors.New("no key store")
	}
	if runID == "" || len(runID) > 64 {
		return "", fmt.Errorf("bad run id %q", runID)
	}
	for _, c := range runID {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return "", fmt.Errorf("bad run id %q", runID)
		}
	}
	return filepath.Join(s.Dir, runID+".key"), nil
}

// create makes a new key for run id (the store's directory 0700, the
// file 0600). It never replaces a key.
func (s Store) create(runID string) (*keyFile, error) {
	p, err := s.path(runID)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, err
	}
	kf := &keyFile{Version: 1, RunID: runID, key: make([]byte, 32)}
	if _, err := rand.Read(kf.key); err != nil {
		return nil, err
	}
	kf.Key = hex.EncodeToString(kf.key)
	data, _ := json.Marshal(kf)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return nil, err
	}
	return kf, nil
}

// load reads run id's key file: the key on its first line, then the
// seals appended since (sealAppend), the last complete one in force. A
// line cut short by a kill is no seal: the run did not finish sealing.
func (s Store) load(runID string) (*keyFile, error) {
	p, err := s.path(runID)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoKey
	}
	if err != nil {
		return nil, err
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	var kf keyFile
	if err := json.Unmarshal(first, &kf); err != nil || kf.Version != 1 || kf.RunID != runID {
		return nil, fmt.Errorf("%s is not the key file of run %s", p, runID)
	}
	if kf.key, err = hex.DecodeString(kf.Key); err != nil || len(kf.key) != 32 {
		return nil, fmt.Errorf("%s holds no 32-byte key", p)
	}
	for {
		line, more, complete := bytes.Cut(rest, []byte("\n"))
		if !complete {
			break
		}
		var later struct {
			Seal *Seal `json:"seal"`
		}
		if err := json.Unmarshal(line, &later); err != nil {
			return nil, fmt.Errorf("%s line %d is not a seal", p, bytes.Count(data[:len(data)-len(rest)], []byte("\n"))+1)
		}
		kf.Seal, rest = later.Seal, more
	}
	return &kf, nil
}

// sealAppend records kf's seal by appending it to the key file: cheaper
// than rewriting the file (no new file, no rename), and a kill halfway
// leaves a cut line that load ignores.
func (s Store) sealAppend(kf *keyFile) error {
	p, err := s.path(kf.RunID)
	if err != nil {
		return err
	}
	line, _ := json.Marshal(struct {
		Seal *Seal `json:"seal"`
	}{kf.Seal})
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// write replaces run id's key file with kf.
func (s Store) write(kf *keyFile) error {
	p, err := s.path(kf.RunID)
	if err != nil {
		return err
	}
	kf.Version, kf.Key = 1, hex.EncodeToString(kf.key)
	data, _ := json.Marshal(kf)
	// atomicfile.Write's steps less its MkdirAll and Chmod: the store
	// exists (create made it) and a temporary file is 0600 already.
	tmp, err := os.CreateTemp(s.Dir, "."+kf.RunID+".key.*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// seal is kf sealed with its files at summary and journal.
func (kf *keyFile) seal(summary, journal Mark) {
	k := &Key{b: kf.key}
	kf.Seal = &Seal{Summary: summary, Journal: journal, MAC: hex.EncodeToString(k.sealMAC(kf.RunID, summary, journal))}
}

// Remove deletes run id's key (the run's records are gone).
func (s Store) Remove(runID string) error {
	p, err := s.path(runID)
	if err != nil {
		return err
	}
	return os.Remove(p)
}

func (k *Key) sealMAC(runID string, summary, journal Mark) []byte {
	h := hmac.New(sha256.New, k.b)
	h.Write([]byte("jaiph-seal-v1\n" + runID + "\n" + strconv.Itoa(summary.Lines) + " " + summary.MAC + "\n" +
		strconv.Itoa(journal.Lines) + " " + journal.MAC + "\n"))
	return h.Sum(nil)
}

// validSeal tells whether seal was made with k for run id.
func (k *Key) validSeal(runID string, seal *Seal) bool {
	want := k.sealMAC(runID, seal.Summary, seal.Journal)
	got, err := hex.DecodeString(seal.MAC)
	return err == nil && hmac.Equal(got, want)
}
