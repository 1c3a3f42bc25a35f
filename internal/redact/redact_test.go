package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"net/url"
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "OPENAI_API_KEY": true, "AWS_SECRET_ACCESS_KEY": true, "DB_PASSWORD": true,
		"GPG_PASSPHRASE": true, "MY_SECRET": true, "SIGNING_KEY": true, "GOOGLE_APPLICATION_CREDENTIALS": true,
		"PRIVATE_KEY_PEM": true, "gh_token": true, "PGPASSWD": true,
		"PATH": false, "HOME": false, "KEYBOARD": false, "JAIPH_RUN_TIMEOUT": false, "MONKEY": false, "TOKENIZER_DIR": false,
		"NPM_TOKENS": true, "GITHUB_PAT": true, "X_APIKEY": true, "SECRET": true, "PATH_KEYS": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	if r := FromEnv([]string{"PATH=/bin", "HOME=/root", "SHORT_TOKEN=abc"}); r != nil {
		t.Fatalf("no secrets of MinLen: got a redactor")
	}
	r := FromEnv([]string{"GH_TOKEN=ghp_abcdef123456", "DEPLOY_HOOK=https://x.test/hook/s3cr3tpath", "JAIPH_REDACT=DEPLOY_HOOK, OTHER", "PLAIN=visible-value"})
	got := r.String("a ghp_abcdef123456 b https://x.test/hook/s3cr3tpath c visible-value")
	if want := "a *** b *** c visible-value"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestForms(t *testing.T) {
	secret := "p@ss word/with+chars?"
	r := New(secret)
	b := []byte(secret)
	for _, form := range []string{
		secret,
		base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
		hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)),
		url.QueryEscape(secret), url.PathEscape(secret),
	} {
		got := r.String("x=" + form + ";")
		if strings.Contains(got, form) || !strings.HasPrefix(got, "x=***") {
			t.Errorf("form %q: got %q", form, got)
		}
	}
}

func TestString(t *testing.T) {
	r := New("abcdefgh", "abcdefghijkl", "zzzzzz", "tiny")
	for in, want := range map[string]string{
		"":                            "",
		"nothing here":                "nothing here",
		"abcdefgh":                    "***",
		"abcdefghijkl":                "***", // the longest at a position
		"abcdefghijk":                 "***ijk",
		"zzzzzzzzzzzz":                "******",
		"xxabcdefghyyzzzzzzww":        "xx***yy***ww",
		"tiny is shorter than MinLen": "tiny is shorter than MinLen",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	var nilR *Redactor
	if nilR.String("abcdefgh") != "abcdefgh" || string(nilR.Bytes([]byte("abcdefgh"))) != "abcdefgh" {
		t.Fatal("a nil Redactor changed its input")
	}
}

// TestWriterSplits checks that the Writer masks as String does however a
// stream is cut into writes.
func TestWriterSplits(t *testing.T) {
	r := New("s3cr3t-token-value", "another-secret")
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"s3cr3t-token-value", "s3cr3t-", "another-secret", "anot", "x", "\n", "s", "-token-value"}
	for round := 0; round < 500; round++ {
		var in strings.Builder
		for n := rng.Intn(12); n >= 0; n-- {
			in.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		s := in.String()
		var out bytes.Buffer
		w := NewWriter(r, &out)
		for rest := s; rest != ""; {
			k := 1 + rng.Intn(len(rest))
			if _, err := w.Write([]byte(rest[:k])); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := r.String(s); out.String() != want {
			t.Fatalf("input %q: writer gave %q, String gives %q", s, out.String(), want)
		}
	}
}

// TestWriterHoldsOnlyPrefixes: output that cannot begin a secret passes
// at once.
func TestWriterHoldsOnlyPrefixes(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(New("s3cr3t-token"), &out)
	w.Write([]byte("line one\n"))
	if out.String() != "line one\n" {
		t.Fatalf("held back %q", out.String())
	}
	w.Write([]byte("then s3cr"))
	if out.String() != "line one\nthen " {
		t.Fatalf("got %q", out.String())
	}
	w.Write([]byte("3t-token!\n"))
	if out.String() != "line one\nthen ***!\n" {
		t.Fatalf("got %q", out.String())
	}
}

func BenchmarkStringNoMatch(b *testing.B) {
	r := FromEnv([]string{"GH_TOKEN=ghp_abcdef1234567890", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"})
	s := strings.Repeat("an ordinary line of step output, nothing secret in it\n", 20)
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		r.String(s)
	}
}
