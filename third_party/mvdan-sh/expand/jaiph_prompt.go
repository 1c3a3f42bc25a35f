package expand

import (
	"os"
	"os/user"
	"path"
	"strconv"
	"strings"
	"time"
)

// promptDecode decodes the backslash escapes of a prompt string as bash's
// decode_prompt_string does in a shell without line editing (jaiph-go
// patch). The texts of \u \h \H \w \W \s and \D{…} are backslash-quoted
// for the double-quoted expansion that follows, as bash does with
// promptvars on; \$ becomes \$ (or # for root). \! and \# are not
// known here and stay as written.
func (cfg *Config) promptDecode(s string) string {
	var sb strings.Builder
	quoted := func(t string) { sb.WriteString(dqBackslashQuote(t)) }
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i == len(s)-1 {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			sb.WriteByte(byte(n))
			i = j - 1
		case 'd', 't', 'T', '@', 'A':
			layout := map[byte]string{'d': "%a %b %d", 't': "%H:%M:%S", 'T': "%I:%M:%S", '@': "%I:%M %p", 'A': "%H:%M"}[e]
			sb.WriteString(promptStrftime(layout, cfg.promptNow()))
		case 'D':
			if i+1 >= len(s) || s[i+1] != '{' {
				sb.WriteString("\\D")
				break
			}
			end := strings.IndexByte(s[i+2:], '}')
			format := s[i+2:]
			if end >= 0 {
				format = s[i+2 : i+2+end]
			}
			if format == "" {
				format = "%X"
			}
			quoted(promptStrftime(format, cfg.promptNow()))
			if end < 0 {
				i = len(s)
			} else {
				i += 2 + end
			}
		case 'n':
			sb.WriteByte('\n')
		case 's':
			quoted("bash")
		case 'v':
			sb.WriteString("5.2")
		case 'V':
			sb.WriteString("5.2.15")
		case 'w', 'W':
			dir := cfg.Env.Get("PWD").String()
			if dir == "" {
				dir, _ = os.Getwd()
			}
			home := cfg.Env.Get("HOME").String()
			if e == 'W' && (home == "" || dir != home) {
				if dir != "/" && dir != "//" {
					dir = dir[strings.LastIndexByte(dir, '/')+1:]
				}
			} else if home != "" && home != "/" && (dir == home || strings.HasPrefix(dir, home+"/")) {
				dir = "~" + dir[len(home):]
			}
			quoted(dir)
		case 'u':
			name := ""
			if u, err := user.Current(); err == nil {
				name = u.Username
			} else {
				name = cfg.Env.Get("USER").String()
			}
			quoted(name)
		case 'h', 'H':
			host, _ := os.Hostname()
			if e == 'h' {
				host, _, _ = strings.Cut(host, ".")
			}
			quoted(host)
		case '$':
			if os.Geteuid() == 0 {
				sb.WriteByte('#')
			} else {
				sb.WriteString("\\$")
			}
		case '!':
			// The history number: 1 in a shell that keeps no history,
			// as bash's history_number, and bash keeps none off a
			// terminal (even under set -o history, which is refused).
			sb.WriteByte('1')
		case 'j':
			n := 0
			if cfg.JobCount != nil {
				n = cfg.JobCount()
			}
			sb.WriteString(strconv.Itoa(n))
		case 'l':
			name := "tty"
			if t, err := os.Readlink("/proc/self/fd/0"); err == nil && (strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty")) {
				name = path.Base(t)
			}
			sb.WriteString(name)
		case '[', ']':
		case '\\':
			sb.WriteByte('\\')
		case 'a':
			sb.WriteByte('\a')
		case 'e':
			sb.WriteByte(0x1b)
		case 'r':
			sb.WriteByte('\r')
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

// dqBackslashQuote is bash's sh_backslash_quote_for_double_quotes: a
// backslash before each of $ ` " \ and newline.
func dqBackslashQuote(s string) string {
	if !strings.ContainsAny(s, "$`\"\\\n") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$', '`', '"', '\\', '\n':
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// promptNow is the time in the zone of an exported TZ, as bash's sv_tz.
func (cfg *Config) promptNow() time.Time {
	now := time.Now()
	if v := cfg.Env.Get("TZ"); v.Exported && v.IsSet() {
		if loc, err := time.LoadLocation(strings.TrimPrefix(v.String(), ":")); err == nil {
			return now.In(loc)
		}
	}
	return now
}

// promptStrftime formats t as C's strftime does in the C locale for the
// common conversions; others are copied.
func promptStrftime(f string, t time.Time) string {
	var sb strings.Builder
	pad := func(n int) { sb.WriteString(leftPad(strconv.Itoa(n), 2, '0')) }
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i == len(f)-1 {
			sb.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'a':
			sb.WriteString(t.Format("Mon"))
		case 'A':
			sb.WriteString(t.Format("Monday"))
		case 'b', 'h':
			sb.WriteString(t.Format("Jan"))
		case 'B':
			sb.WriteString(t.Format("January"))
		case 'd':
			pad(t.Day())
		case 'e':
			sb.WriteString(leftPad(strconv.Itoa(t.Day()), 2, ' '))
		case 'H':
			pad(t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			pad(h)
		case 'j':
			sb.WriteString(leftPad(strconv.Itoa(t.YearDay()), 3, '0'))
		case 'm':
			pad(int(t.Month()))
		case 'M':
			pad(t.Minute())
		case 'p':
			sb.WriteString(t.Format("PM"))
		case 'S':
			pad(t.Second())
		case 'y':
			pad(t.Year() % 100)
		case 'Y':
			sb.WriteString(strconv.Itoa(t.Year()))
		case 'Z':
			sb.WriteString(t.Format("MST"))
		case 'z':
			sb.WriteString(t.Format("-0700"))
		case 'X', 'T':
			sb.WriteString(promptStrftime("%H:%M:%S", t))
		case 'R':
			sb.WriteString(promptStrftime("%H:%M", t))
		case 'x', 'D':
			sb.WriteString(promptStrftime("%m/%d/%y", t))
		case 'F':
			sb.WriteString(promptStrftime("%Y-%m-%d", t))
		case 's':
			sb.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case '%':
			sb.WriteByte('%')
		default:
			sb.WriteByte('%')
			sb.WriteByte(f[i])
		}
	}
	return sb.String()
}

func leftPad(s string, n int, c byte) string {
	for len(s) < n {
		s = string(c) + s
	}
	return s
}
