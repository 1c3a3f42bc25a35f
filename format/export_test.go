package format

import "strings"

// NormalizeShell removes from shell text what bash ignores and the
// formatter may change, and nothing else, so that the lowered shell of a
// file and of its formatted text can be compared:
//
//   - leading blanks of a line that starts outside strings and
//     here-documents (bash skips blanks between words; after a
//     backslash-newline that follows a non-blank, a non-empty run becomes
//     one blank, since there it separates two words and its length does
//     not matter);
//   - trailing blanks of a line that ends outside a string, unless a
//     backslash escapes the last one (they only end the last word);
//   - empty lines outside strings and here-documents, except the one after
//     a backslash-newline, which ends the command (an empty line is a
//     newline token, and a newline between two already separated commands
//     or list parts adds nothing).
func NormalizeShell(src string) string {
	sc := &scanner{}
	var out []string
	for _, raw := range strings.Split(src, "\n") {
		info := sc.line(raw)
		if info.verbatim {
			out = append(out, raw)
			continue
		}
		body := strings.TrimLeft(raw, " \t")
		if !info.openQuote {
			if t := strings.TrimRight(body, " \t"); !oddBackslashes(t) || t == body {
				body = t
			}
		}
		switch {
		case info.cont && info.glued && body != raw && body != "":
			body = " " + body
		case body == "" && !info.cont:
			continue
		}
		out = append(out, body)
	}
	return strings.Join(out, "\n")
}
