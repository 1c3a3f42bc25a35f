package shellbuiltin

import "testing"

// Expected values are what bash 5.2's echo prints.
func TestBashEcho(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "\n"},
		{[]string{"a", "b  c"}, "a b  c\n"},
		{[]string{"-n", "x"}, "x"},
		{[]string{"-n"}, ""},
		{[]string{"-e", `a\tb\nc`}, "a\tb\nc\n"},
		{[]string{`a\tb`}, "a\\tb\n"},
		{[]string{"-ne", `x\c`, "y"}, "x"},
		{[]string{"-eE", `a\n`}, "a\\n\n"},
		{[]string{"-x", "y"}, "-x y\n"},
		{[]string{"--", "y"}, "-- y\n"},
		{[]string{"-", "y"}, "- y\n"},
		{[]string{"y", "-n"}, "y -n\n"},
		{[]string{"-e", `\0101\x41\u00e9\e[0m\\\q`}, "AA\u00e9\x1b[0m\\\\q\n"},
		// bash's encoding of surrogates, values past U+10FFFF and past 0x7fffffff (Oils' unicode spec)
		{[]string{"-e", `\udc00 \U00110000 \U7fffffff \U80000000.`}, "\xed\xb0\x80 \xf4\x90\x80\x80 \xfd\xbf\xbf\xbf\xbf\xbf .\n"},
		{[]string{"-e", `\x`}, "\\x\n"},
		{[]string{"-e", `trailing\`}, "trailing\\\n"},
		{[]string{"$(touch x)", "`id`"}, "$(touch x) `id`\n"},
	} {
		if got := bashEcho(tc.args, false); got != tc.want {
			t.Errorf("echo %q = %q, want %q", tc.args, got, tc.want)
		}
	}
}
