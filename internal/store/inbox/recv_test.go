package inbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/redact"
)

func TestReceivedOrderKeysAndOnce(t *testing.T) {
	dir, records := t.TempDir(), t.TempDir()
	if err := DeclareReceived(dir, []string{"ch"}); err != nil {
		t.Fatal(err)
	}
	if !ReceivesOn(dir, "ch") || ReceivesOn(dir, "other") || ReceivesOn(dir, "../ch") {
		t.Fatal("ReceivesOn")
	}
	r := NewReceived(dir, redact.New("s3cret-value"), records)
	for _, m := range [][2]string{{"", "one"}, {"pr 7", "for pr 7"}, {"", "token s3cret-value"}} {
		if m[0] == "" {
			if err := r.Put("ch", "", m[1]); err != nil {
				t.Fatal(err)
			}
		} else if _, err := PutReceived(dir, "ch", m[0], m[1], nil); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if p, _, err := r.Wait(ctx, "ch", "pr 7", true, time.Second); err != nil || p != "for pr 7" {
		t.Fatalf("keyed: %q %v", p, err)
	}
	if p, _, err := r.Wait(ctx, "ch", "", false, time.Second); err != nil || p != "one" {
		t.Fatalf("first: %q %v", p, err)
	}
	if p, _, err := r.Wait(ctx, "ch", "", false, time.Second); err != nil || p != "token s3cret-value" {
		t.Fatalf("masked message's real payload: %q %v", p, err)
	}
	if b, _ := os.ReadFile(filepath.Join(ReceivedDir(dir, "ch"), takenDir, "000003.txt")); string(b) != "token ***" {
		t.Errorf("message file holds %q, want the credential masked", b)
	}
	if _, _, err := r.Wait(ctx, "ch", "", false, 50*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("empty channel: %v, want ErrTimeout", err)
	}
	// A message from outside is masked once taken.
	if _, err := PutReceived(dir, "ch", "", "again s3cret-value", nil); err != nil {
		t.Fatal(err)
	}
	p, name, _ := r.Wait(ctx, "ch", "", false, time.Second)
	if p != "again s3cret-value" || name != "000004.txt" {
		t.Fatalf("outside message: %q %q", p, name)
	}
	if again, err := r.Read("ch", name); err != nil || again != p {
		t.Fatalf("Read of a taken message: %q %v", again, err)
	}
	if b, _ := os.ReadFile(filepath.Join(ReceivedDir(dir, "ch"), takenDir, "000004.txt")); string(b) != "again ***" {
		t.Errorf("outside message file holds %q after its receive", b)
	}
}

// Concurrent writers never reuse a number, concurrent receives never take
// one message twice, and a waiting receive wakes on a message's arrival.
func TestReceivedConcurrent(t *testing.T) {
	dir := t.TempDir()
	if err := DeclareReceived(dir, []string{"ch"}); err != nil {
		t.Fatal(err)
	}
	r := NewReceived(dir, nil, "")
	const n = 40
	got := make(chan string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, _, err := r.Wait(context.Background(), "ch", "", false, 10*time.Second)
			if err != nil {
				t.Error(err)
			}
			got <- p
		}()
	}
	var put sync.WaitGroup
	for i := 0; i < n; i++ {
		put.Add(1)
		go func() {
			defer put.Done()
			if _, err := PutReceived(dir, "ch", "", "m", nil); err != nil {
				t.Error(err)
			}
		}()
	}
	put.Wait()
	wg.Wait()
	close(got)
	if len(got) != n {
		t.Fatalf("%d receives got a message, want %d", len(got), n)
	}
	taken, _ := os.ReadDir(filepath.Join(ReceivedDir(dir, "ch"), takenDir))
	if len(taken) != n {
		t.Fatalf("%d taken files, want %d", len(taken), n)
	}
}

func TestReceivedCancel(t *testing.T) {
	dir := t.TempDir()
	DeclareReceived(dir, []string{"ch"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, _, err := NewReceived(dir, nil, "").Wait(ctx, "ch", "", false, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
}
