package redact

import (
	"strings"
	"testing"
)

// TestEncodedForms: each secret written as other programs encode it is
// masked. The encoded texts were produced by Python (urllib.parse.quote
// with safe="", json.dumps) and Node (encodeURIComponent, JSON.stringify),
// not by the code under test.
func TestEncodedForms(t *testing.T) {
	for _, c := range []struct{ secret, form, how string }{
		{"s3cret pass@x", "s3cret%20pass%40x", "quote / encodeURIComponent"},
		{"p@ss word/with+chars?~!*()'", "p%40ss%20word%2Fwith%2Bchars%3F~%21%2A%28%29%27", "quote(safe=\"\")"},
		{"p@ss word/with+chars?~!*()'", "p%40ss%20word%2fwith%2bchars%3f~%21%2a%28%29%27", "quote, lower-case hex"},
		{"p@ss word/with+chars?~!*()'", "p%40ss%20word%2Fwith%2Bchars%3F~!*()'", "encodeURIComponent"},
		{"p@ss word/with+chars?~!*()'", "p%40ss%20word%2fwith%2bchars%3f~!*()'", "encodeURIComponent, lower-case hex"},
		{"quo\"te\\back\x01\x1bslash\n\t<&>", `quo\"te\\back\u0001\u001bslash\n\t<&>`, "json.dumps / JSON.stringify"},
		{"quo\"te\\back\x01\x1bslash\n\t<&>", `quo\"te\\back\u0001\u001bslash\n\t\u003c\u0026\u003e`, "Go json.Marshal"},
		{"quo\"te\\back\x01\x1bslash\n\t<&>", "quo%22te%5Cback%01%1Bslash%0A%09%3C%26%3E", "quote, control bytes"},
		{"café-😀-secret", `caf\u00e9-\ud83d\ude00-secret`, "json.dumps, ensure_ascii"},
		{"café-😀-secret", "caf%C3%A9-%F0%9F%98%80-secret", "quote, UTF-8"},
		{"café-😀-secret", "caf%c3%a9-%f0%9f%98%80-secret", "quote, UTF-8, lower-case hex"},
	} {
		r := New(c.secret)
		in := `{"x":"` + c.form + `"}`
		if got, want := r.String(in), `{"x":"***"}`; got != want {
			t.Errorf("%s of %q: String(%q) = %q, want %q", c.how, c.secret, in, got, want)
		}
		// The streaming writer, cut in the middle of the form, agrees.
		var out strings.Builder
		w := NewWriter(r, &out)
		w.Write([]byte(in[:len(in)/2]))
		w.Write([]byte(in[len(in)/2:]))
		w.Flush()
		if out.String() != `{"x":"***"}` {
			t.Errorf("%s of %q through the Writer: %q", c.how, c.secret, out.String())
		}
	}
}

// TestPlainSecretsOneNeedle: a secret of letters, digits and "-_." has
// no encoded form that differs from it but base64 and hex, so the new
// forms add nothing to scan for.
func TestPlainSecretsOneNeedle(t *testing.T) {
	r := New("ghp_abcdef-1234.56")
	if got := len(r.needles); got != 4 { // value, base64 (both alphabets agree here), 2 hex
		t.Errorf("%d needles: %q", got, r.strs)
	}
}
