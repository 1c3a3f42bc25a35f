package shellbuiltin

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// printfCases were recorded from GNU bash 5.2.15 on x86-64 with glibc 2.36,
// LANG=C.UTF-8 and TZ=UTC, as `bash -c 'printf "$@"' bash ARGS...`; the
// "bash: line 1: " prefix of its messages is left out.
var printfCases = []struct {
	name           string
	args           []string
	stdout, stderr string
	status         int
}{
	{"no format is a usage error", []string{},
		"", "printf: usage: printf [-v var] format [arguments]\n", 2},
	{"-- alone is a usage error", []string{"--"},
		"", "printf: usage: printf [-v var] format [arguments]\n", 2},
	{"invalid option", []string{"-x"},
		"", "printf: -x: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", 2},
	{"invalid option digit", []string{"-1"},
		"", "printf: -1: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", 2},
	{"format starting with dash", []string{"-%s", "a"},
		"", "printf: -%: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", 2},
	{"-- then a dash format", []string{"--", "-x"},
		"-x", "", 0},
	{"lone dash is a format", []string{"-"},
		"-", "", 0},
	{"double dash word is an invalid option", []string{"--x"},
		"", "printf: --: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", 2},
	{"--help", []string{"--help"},
		"printf: printf [-v var] format [arguments]\n    Formats and prints ARGUMENTS under control of the FORMAT.\n    \n    Options:\n      -v var\tassign the output to shell variable VAR rather than\n    \t\tdisplay it on the standard output\n    \n    FORMAT is a character string which contains three types of objects: plain\n    characters, which are simply copied to standard output; character escape\n    sequences, which are converted and copied to the standard output; and\n    format specifications, each of which causes printing of the next successive\n    argument.\n    \n    In addition to the standard format specifications described in printf(1),\n    printf interprets:\n    \n      %b\texpand backslash escape sequences in the corresponding argument\n      %q\tquote the argument in a way that can be reused as shell input\n      %Q\tlike %q, but apply any precision to the unquoted argument before\n    \t\tquoting\n      %(fmt)T\toutput the date-time string resulting from using FMT as a format\n    \t        string for strftime(3)\n    \n    The format is re-used as necessary to consume all of the arguments.  If\n    there are fewer arguments than the format requires,  extra format\n    specifications behave as if a zero value or null string, as appropriate,\n    had been supplied.\n    \n    Exit Status:\n    Returns success unless an invalid option is given or a write or assignment\n    error occurs.\n", "", 2},
	{"-- then --help is a format", []string{"--", "--help"},
		"--help", "", 0},
	{"empty format", []string{""},
		"", "", 0},
	{"empty format with args", []string{"", "a"},
		"", "", 0},
	{"plain text", []string{"plain"},
		"plain", "", 0},
	{"no conversions: format printed once", []string{"x\\n", "a", "b"},
		"x\n", "", 0},
	{"format escapes", []string{"a\\\\b\\a\\b\\e\\E\\f\\n\\r\\t\\v\\\"\\'\\?\\c\\z|"},
		"a\\b\a\b\x1b\x1b\f\n\r\t\v\"'?\\c\\z|", "", 0},
	{"format octal escapes", []string{"\\0101\\101\\18\\1234\\0\\00\\000\\0000\\777|"},
		"\b1A\x018S4\x00\x00\x00\x000\xff|", "", 0},
	{"format hex escapes", []string{"\\x41\\x4g\\xg\\x|"},
		"A\x04g\\xg\\x|", "printf: missing hex digit for \\x\nprintf: missing hex digit for \\x\n", 0},
	{"format unicode escapes", []string{"\\u00e9\\U0001F600\\u\\U\\uD800\\U110000\\U7FFFFFFF\\UFFFFFFFF\\U80000000\\u0080\\U0000007f|"},
		"é😀\\u\\U\xed\xa0\x80\xf4\x90\x80\x80\xfd\xbf\xbf\xbf\xbf\xbf\u0080\x7f|", "printf: missing unicode digit for \\u\nprintf: missing unicode digit for \\U\n", 0},
	{"unicode escape digit limits", []string{"\\u41\\u004142|"},
		"AA42|", "", 0},
	{"trailing backslash", []string{"trailing\\"},
		"trailing\\", "", 0},
	{"backslash before conversion", []string{"\\%d", "5"},
		"\\5", "", 0},
	{"%s widths and precisions", []string{"%s|%5s|%-5s|%.2s|%5.1s|%.s|%.0s|%05s|%#s|%+s|% s|\n", "abc", "abc", "abc", "abc", "abc", "abc", "abc", "ab", "ab", "ab", "ab"},
		"abc|  abc|abc  |ab|    a|||   ab|ab|ab|ab|\n", "", 0},
	{"%s counts bytes; l modifier ignored", []string{"%.1s|%3s|%ls|%lc|\n", "é", "é", "é", "é"},
		"\xc3| é|é|\xc3|\n", "", 0},
	{"%c takes the first byte", []string{"%c|%5c|%-3c|%c|%c|%.3c|%010c|\n", "abc", "a", "b", "é", "", "z", "c"},
		"a|    a|b  |\xc3|\x00|z|         c|\n", "", 0},
	{"%c without argument prints NUL", []string{"%c"},
		"\x00", "", 0},
	{"%s without argument", []string{"%s"},
		"", "", 0},
	{"missing args are empty", []string{"[%s][%s]\n", "a"},
		"[a][]\n", "", 0},
	{"format reused", []string{"%s %s\n", "a", "b", "c"},
		"a b\nc \n", "", 0},
	{"star width and precision", []string{"%*s|%-*s|%.*s|%*.*s|%.*s|\n", "5", "a", "4", "b", "2", "abc", "6", "1", "xyz", "-1", "abc"},
		"    a|b   |ab|     x|abc|\n", "", 0},
	{"negative star width left-justifies", []string{"%*s|", "-3", "a"},
		"a  |", "", 0},
	{"star with integers", []string{"%*d|%-*d|%.*d|%*.*d|\n", "5", "1", "-5", "1", "3", "1", "-6", "-2", "7"},
		"    1|1    |001|7     |\n", "", 0},
	{"star value out of int range", []string{"[%.*d]", "-3000000000", "7", "8"},
		"[7][00000000]", "printf: warning: 7: Numerical result out of range\n", 0},
	{"integer forms", []string{"%d|%i|%d|%d|%d|%d|%d|%d\n", "42", "-42", "+7", "-0x10", "010", "0X1f", "\" 5", "'A"},
		"42|-42|7|-16|8|31|32|65\n", "", 0},
	{"invalid and edge integers", []string{"%d\n", "09", "0xg", "1a", "", " 5", "5 ", "+", "-", "-0x", "'é", "'", "\"ab", "99999999999999999999", "-99999999999999999999", "99999999999999999999x", "0X1g", "\t\n 7", " ", "abc", "9223372036854775807", "-9223372036854775808", "9223372036854775808"},
		"0\n0\n1\n0\n5\n5\n0\n0\n0\n233\n0\n97\n9223372036854775807\n-9223372036854775808\n9223372036854775807\n1\n7\n0\n0\n9223372036854775807\n-9223372036854775808\n9223372036854775807\n", "printf: 09: invalid octal number\nprintf: 0xg: invalid hex number\nprintf: 1a: invalid number\nprintf: 5 : invalid number\nprintf: +: invalid number\nprintf: -: invalid number\nprintf: -0x: invalid number\nprintf: warning: 99999999999999999999: Numerical result out of range\nprintf: warning: -99999999999999999999: Numerical result out of range\nprintf: 99999999999999999999x: invalid number\nprintf: 0X1g: invalid number\nprintf:  : invalid number\nprintf: abc: invalid number\nprintf: warning: 9223372036854775808: Numerical result out of range\n", 1},
	{"unsigned conversions", []string{"%u|%x|%o|%X|%u|%u|%u|%x\n", "-1", "-1", "-1", "255", "12a", "-99999999999999999999", "-18446744073709551615", "18446744073709551616"},
		"18446744073709551615|ffffffffffffffff|1777777777777777777777|FF|12|18446744073709551615|1|ffffffffffffffff\n", "printf: 12a: invalid number\nprintf: warning: -99999999999999999999: Numerical result out of range\nprintf: warning: 18446744073709551616: Numerical result out of range\n", 1},
	{"integer flags", []string{"%5d|%-5d|%05d|%-05d|%+d|% d|%+ d|%+05d|% 05d|%05.2d|%.0d|%.0d|%.3d|%+.3d|%8.3d|%-8.3d|\n", "1", "2", "-3", "-3", "5", "5", "5", "3", "3", "3", "0", "7", "7", "3", "-7", "-7"},
		"    1|2    |-0003|-3   |+5| 5|+5|+0003| 0003|   03||7|007|+003|    -007|-007    |\n", "", 0},
	{"alternate forms", []string{"%#x|%#x|%#o|%#o|%#X|%#5x|%#05x|%#.3x|%#10.3x|%#-10x|%#.0o|%#.3o|%+u|% x|%+o|%x|\n", "0", "255", "0", "8", "255", "255", "255", "255", "255", "255", "0", "8", "5", "255", "8", "-255"},
		"0|0xff|0|010|0XFF| 0xff|0x0ff|0x0ff|     0x0ff|0xff      |0|010|5|ff|10|ffffffffffffff01|\n", "", 0},
	{"grouping flag is a no-op in C.UTF-8", []string{"%'d|%'.2f|%'10d|\n", "1234567", "1234.5", "1234"},
		"1234567|1234.50|      1234|\n", "", 0},
	{"length modifiers are ignored", []string{"%hhd|%ld|%lld|%jd|%zd|%Lf|%hu|%td|%qd\n", "300", "1", "2", "3", "4", "5", "6", "7", "8"},
		"300|1|2|3|4|5.000000|6|7|8d\n", "", 0},
	{"reuse with integers", []string{"%d %s\n", "1", "a", "2"},
		"1 a\n2 \n", "", 0},
	{"reuse with width", []string{"[%3d]", "1", "22", "4444"},
		"[  1][ 22][4444]", "", 0},
	{"invalid number status", []string{"%d", "x"},
		"0", "printf: x: invalid number\n", 1},
	{"invalid number then more", []string{"%d %d\n", "1", "x", "3"},
		"1 0\n3 0\n", "printf: x: invalid number\n", 1},
	{"character codes", []string{"%x %X %o\n", "\"A", "'é", "'"},
		"41 E9 0\n", "", 0},
	{"float conversions of 1", []string{"%f %e %g %a %A %F %E %G\n", "1", "1", "1", "1", "1", "1", "1", "1"},
		"1.000000 1.000000e+00 1 0x8p-3 0X8P-3 1.000000 1.000000E+00 1\n", "", 0},
	{"long double precision", []string{"%f|%.20f|%g|%.15g|%a\n", "0.1", "0.1", "0.1", "0.1", "0.1"},
		"0.100000|0.10000000000000000000|0.1|0.1|0xc.ccccccccccccccdp-7\n", "", 0},
	{"inf nan and flags", []string{"%f|%e|%g|%f|%F|%5.1f|%-8.2e|%+g|% g|%#g|%#.0f|%08.3f\n", "inf", "-inf", "nan", "-nan", "nan", "3.14159", "12345.678", "5", "5", "5", "3", "-3.14159"},
		"inf|-inf|nan|-nan|NAN|  3.1|1.23e+04|+5| 5|5.00000|3.|-003.142\n", "", 0},
	{"%g style choice", []string{"%g %g %g %g %g %g %g %g\n", "100000", "1000000", "0.0001", "0.00001", "1e300", "123456789", "999999.5", "0.000099999995"},
		"100000 1e+06 0.0001 1e-05 1e+300 1.23457e+08 1e+06 0.0001\n", "", 0},
	{"float parsing", []string{"%f\n", "1e4933", "0x1p3", "1,5", " 2.5", "2.5 ", "0x", "'A", "1e", "1.e5", ".5", "infinity", "INFINITYx", "nan(abc)", "", "-", "+.5e1", ".e1", "0x.8", "0x1p", "1e+", "nan(12_a)", "nan(", "INF", "-InFiNiTy", "1e-400", "-0"},
		"inf\n8.000000\n1.000000\n2.500000\n2.500000\n0.000000\n65.000000\n1.000000\n100000.000000\n0.500000\ninf\ninf\nnan\n0.000000\n0.000000\n5.000000\n0.000000\n0.500000\n1.000000\n1.000000\nnan\nnan\ninf\n-inf\n0.000000\n-0.000000\n", "printf: warning: 1e4933: Numerical result out of range\nprintf: 1,5: invalid number\nprintf: 2.5 : invalid number\nprintf: 0x: invalid hex number\nprintf: 1e: invalid number\nprintf: INFINITYx: invalid number\nprintf: -: invalid number\nprintf: .e1: invalid number\nprintf: 0x1p: invalid hex number\nprintf: 1e+: invalid number\nprintf: nan(: invalid number\n", 1},
	{"%a rounding", []string{"%.0a|%.0a|%.0a|%.1a|%.0a|%.2a|%.14a|%.20a|%a|%a|%a\n", "0xf.8p0", "0xe.8p0", "0xf.9p0", "0xf.f8p0", "0x8.8p0", "0x8.008p0", "0xf.ffffffffffffff8p0", "1", "0x1p-16440", "0x1p-16382", "0x1p-16383"},
		"0x1p+4|0xep+0|0x1p+4|0x1.0p+4|0x8p+0|0x8.00p+0|0x1.00000000000000p+4|0x8.00000000000000000000p-3|0x0.00000000000002p-16385|0x8p-16385|0x4p-16385\n", "", 0},
	{"subnormals and underflow", []string{"%a|%a|%a|%e|%a|%a\n", "0x1p-16446", "0x1p-16445", "0x1.8p-16446", "1e-5000", "1e-4940", "0x1.fffffffffffffffep0"},
		"0x0p+0|0x0.000000000000001p-16385|0x0.000000000000001p-16385|0.000000e+00|0x0.000000663278e62p-16385|0xf.fffffffffffffffp-3\n", "printf: warning: 0x1p-16446: Numerical result out of range\nprintf: warning: 0x1.8p-16446: Numerical result out of range\nprintf: warning: 1e-5000: Numerical result out of range\nprintf: warning: 1e-4940: Numerical result out of range\n", 0},
	{"%a flags", []string{"%a|%a|%a|%a|%a|%.2a|%A|%a|%a|%#a|%.0a|%10.1a|%-12a|%+a|%010a|%.3A\n", "0", "-0", "0.1", "255", "1e-4940", "1", "3.5", "inf", "nan", "1", "1.5", "1", "2", "3", "1", "-0.3"},
		"0x0p+0|-0x0p+0|0xc.ccccccccccccccdp-7|0xf.fp+4|0x0.000000663278e62p-16385|0x8.00p-3|0XEP-2|inf|nan|0x8.p-3|0xcp-3|  0x8.0p-3|0x8p-2      |+0xcp-2|0x00008p-3|-0X9.99AP-5\n", "printf: warning: 1e-4940: Numerical result out of range\n", 0},
	{"%e forms", []string{"%e|%.0e|%#.0e|%.3e|%e|%E|%e|%.10e|%e|%+010.1e\n", "0", "5", "5", "123456", "1e-320", "1e100", "-0", "1e4000", "1.5e-4940", "1"},
		"0.000000e+00|5e+00|5.e+00|1.235e+05|1.000000e-320|1.000000E+100|-0.000000e+00|1.0000000000e+4000|1.500000e-4940|+001.0e+00\n", "printf: warning: 1.5e-4940: Numerical result out of range\n", 0},
	{"%f rounds half to even", []string{"%.0f|%.0f|%.0f|%.0f|%.1f|%.2f|%.3f|%f|%.30f|%.0f|%.0f\n", "0.5", "1.5", "2.5", "-0.5", "0.05", "2.675", "1.0005", "1e20", "1e-5", "3.5", "1e30"},
		"0|2|2|-0|0.1|2.67|1.001|100000000000000000000.000000|0.000009999999999999999999948913|4|1000000000000000000024696061952\n", "", 0},
	{"%g forms", []string{"%g|%g|%#g|%.0g|%.1g|%g|%G|%g|%.20g|%#.3g|%g|%#.1g|%#.0g|%G\n", "0", "-0", "0", "0.5", "15", "1e-5", "1e-10", "123456", "0.1", "1", "1e-4940", "15", "5", "inf"},
		"0|-0|0.00000|0.5|2e+01|1e-05|1E-10|123456|0.1|1.00|1e-4940|2.e+01|5.|INF\n", "printf: warning: 1e-4940: Numerical result out of range\n", 0},
	{"%#g when rounding adds a digit", []string{"%#.2g|%#.3g|%#.2g|%#.1g|%#.4g|%#.2g|%#.3g|%#g|%#.2e|%.2g|%#.2g|%#.3g|%#.5g\n", "99.5", "999.5", "9.96", "9.5", "99995", "0.0995", "0.9995", "999999.5", "99.5", "99.5", "995", "9995", "0.000099999995"},
		"1.e+02|1.e+03|10.|1.e+01|1.000e+05|0.099|0.999|1.e+06|9.95e+01|1e+02|1.0e+03|1.00e+04|0.00010000\n", "", 0},
	{"float padding", []string{"%010f|%-010f|%010.2f|%-+10.2f|% f|%+f|%+F|% e|%010e|%010g|%010F|%-10F|\n", "inf", "2", "-1.5", "2.25", "1", "-nan", "inf", "nan", "-3", "-3", "-inf", "nan"},
		"       inf|2.000000  |-000001.50|+2.25     | 1.000000|-nan|+INF| nan|-3.000000e+00|-000000003|      -INF|NAN       |\n", "", 0},
	{"float extremes", []string{"%.3e %.3e %.3e\n", "1.7976931348623157e308", "1.18973149535723176502e4932", "1.18973149535723176503e4932"},
		"1.798e+308 1.190e+4932 1.190e+4932\n", "", 0},
	{"common float uses", []string{"%.3f|%.10f|%.25f|%.2f|%.2f|%.1f\n", "3.14159265358979", "2.5", "0.3", "1.005", "1.125", "0.25"},
		"3.142|2.5000000000|0.3000000000000000000108420|1.00|1.12|0.2\n", "", 0},
	{"mixed", []string{"%5.3s|%-7.2e|%07.2f|%+.2e|%.2E\n", "abcdef", "1234.5", "-3.14159", "0.000123", "99999"},
		"  abc|1.23e+03|-003.14|+1.23e-04|1.00E+05\n", "", 0},
	{"percentages", []string{"%-10s|%5.2f%%\n", "name", "12.345"},
		"name      |12.35%\n", "", 0},
	{"%b escapes", []string{"%b|", "a\\\\b\\a\\b\\e\\E\\f\\n\\r\\t\\v\\\"\\'\\?\\z\\0101\\101\\18\\x41\\x4g\\xg\\u00e9\\U0001F600\\u\\uD800\\", "x\\cy", "z"},
		"a\\b\a\b\x1b\x1b\f\n\r\t\v\\\"\\'\\?\\zAA\x018A\x04g\\xgé😀\\u\xed\xa0\x80\\|x", "printf: missing hex digit for \\x\nprintf: missing unicode digit for \\u\n", 0},
	{"%b \\c stops all output", []string{"%s%b%s\n", "a", "b\\cc", "d"},
		"ab", "", 0},
	{"%b \\c in a reused format", []string{"A%b\nB\n", "x", "y\\c", "z"},
		"Ax\nB\nAy", "", 0},
	{"%b octal", []string{"%b|", "\\1234\\0\\00\\000\\0000\\01234\\08"},
		"S4\x00\x00\x00\x00S4\x008|", "", 0},
	{"%b big unicode", []string{"%b", "\\UFFFFFFFF|\\x41\\x"},
		"|A\\x", "printf: missing hex digit for \\x\n", 0},
	{"%b width and precision", []string{"%.3b|%.b|%5b|%-5b|%.*b|[%5b]|%.-3b|%*b|\n", "a\\tb", "x", "a\\n", "a", "1", "xyz", "", "abc", "-4", "q"},
		"a\tb||   a\n|a    |x|[     ]||q   |\n", "", 0},
	{"%b without argument", []string{"%b\n"},
		"\n", "", 0},
	{"%b \\c first", []string{"%b%s\n", "\\c", "never"},
		"", "", 0},
	{"\\c ends with status 0 despite errors", []string{"%d%b|\n", "x", "\\c"},
		"0", "printf: x: invalid number\n", 0},
	{"%q cases", []string{"[%q]\n", "", "a b", "#x", "a#", "~", "~/x", "a~", "a=~", "a:~b", "x=~", "it's", "say \"hi\"", "$HOME", "a;b|c&d", "(x)", "*?[]", "a\\b", "{a,b}", "^!", "a\tb", "a\nb", "é", "%@+-_.,/:=", "`cmd`", "\x01", "\x7f", "\x1b[0m", "a b\nc", "\u00a0", "\u200b", "\u0085", "\ue000", "\U0010ffff", "\u0378", "\u3000", "\u2028", "😀", "it's\t\"q\"\\", "\a\b\f\v\r", "\u00ad", "\ufeff", "̀", "á", "�", "\uffff", "\U000e0001", "\u1680", "\u2000", "-n", "a=b", "x y\tz", "!", "tab\there", "new\nline ok"},
		"['']\n[a\\ b]\n[\\#x]\n[a#]\n[\\~]\n[\\~/x]\n[a~]\n[a=\\~]\n[a:\\~b]\n[x=\\~]\n[it\\'s]\n[say\\ \\\"hi\\\"]\n[\\$HOME]\n[a\\;b\\|c\\&d]\n[\\(x\\)]\n[\\*\\?\\[\\]]\n[a\\\\b]\n[\\{a\\,b\\}]\n[\\^\\!]\n[$'a\\tb']\n[$'a\\nb']\n[é]\n[%@+-_.\\,/:=]\n[\\`cmd\\`]\n[$'\\001']\n[$'\\177']\n[$'\\E[0m']\n[$'a b\\nc']\n[\u00a0]\n[\u200b]\n[$'\\302\\205']\n[\ue000]\n[$'\\364\\217\\277\\277']\n[$'\\315\\270']\n[\u3000]\n[$'\\342\\200\\250']\n[😀]\n[$'it\\'s\\t\"q\"\\\\']\n[$'\\a\\b\\f\\v\\r']\n[\u00ad]\n[\ufeff]\n[̀]\n[á]\n[�]\n[$'\\357\\277\\277']\n[\U000e0001]\n[\u1680]\n[\u2000]\n[-n]\n[a=b]\n[$'x y\\tz']\n[\\!]\n[$'tab\\there']\n[$'new\\nline ok']\n", "", 0},
	{"%q invalid UTF-8", []string{"[%q]\n", "a\xff", "é\xc3"},
		"[$'a\\377']\n[$'é\\303']\n", "", 0},
	{"%q width and precision", []string{"%q|%5q|%-6q|%.2q|%.1q|%.*q|%q\n", "ab", "x", "y", "a b", "a b", "1", "abc"},
		"ab|    x|y     |a\\|a|a|''\n", "", 0},
	{"%Q precision applies before quoting", []string{"%.1Q|%5Q|%-6.2Q|%.*Q|%.*Q|%.0Q|%.Q|%.q|%5.1Q|%.-1Q|%Q\n", "a b", "x y", " ab", "2", "a b", "1", "abc", "abc", "abc", "abc", "abc", "abc", "a b"},
		"a| x\\ y|\\ a   |a\\ b|abc|''|||    a||a\\ b\n", "", 0},
	{"%q without argument", []string{"%q\n"},
		"''\n", "", 0},
	{"z is a length modifier", []string{"%z", "1"},
		"", "printf: `%z': missing format character\n", 1},
	{"trailing percent", []string{"ab%"},
		"ab", "printf: `%': missing format character\n", 1},
	{"%5%", []string{"%5%"},
		"", "printf: `%': invalid format character\n", 1},
	{"positional args unsupported", []string{"%1$s", "a"},
		"", "printf: `$': invalid format character\n", 1},
	{"invalid conversion stops output", []string{"a%yb"},
		"a", "printf: `y': invalid format character\n", 1},
	{"modifier without conversion", []string{"%5.2l"},
		"", "printf: `%5.2l': missing format character\n", 1},
	{"%w", []string{"%w"},
		"", "printf: `w': invalid format character\n", 1},
	{"flag without conversion", []string{"%-"},
		"", "printf: `%-': missing format character\n", 1},
	{"trailing percent with args", []string{"x%", "1", "2"},
		"x", "printf: `%': missing format character\n", 1},
	{"%% consumes nothing", []string{"%%\n", "a", "b"},
		"%\n", "", 0},
	{"%5% with args", []string{"%5%d", "1"},
		"", "printf: `%': invalid format character\n", 1},
	{"dash precision is echoed by glibc", []string{"%.-3d|%-+ #0d|%-05d|\n", "5", "7", "3"},
		"%.0-3ld|+7|3    |\n", "", 0},
	{"dash precision flags", []string{"%-5.-3s|%#08.-2x|%+ 0-7.-1f|%*.-3d|%.-c|% 0.-e|\n", "a", "1", "2", "-4", "3", "x", "5"},
		"%-5.0-3s|%#08.0-2lx|%+-7.0-1Lf|%-4.0-3ld|%.0-c|% 0.0-Le|\n", "", 0},
	{"dash precision with star and zero", []string{"%17.-0c%#'0*.-5s", "5 ", "-42", "12,5", "-2.25", "5e-324"},
		"%17.0-0c%#'-042.0-5s%17.0-0c%#'05.0-5s", "printf: 5e-324: invalid number\n", 1},
	{"dash precision on printstr conversions", []string{"%.-s|%.-b|%.-q|%.-3b|\n", "abc", "abc", "abc", "abc"},
		"%.0-s||||\n", "", 0},
	{"%n consumes a name", []string{"ab%ncd\n", "v"},
		"abcd\n", "", 0},
	{"%n invalid name", []string{"ab%ncd\n", "1a"},
		"ab", "printf: `1a': not a valid identifier\n", 1},
	{"%n empty name", []string{"ab%ncd|", "", "x"},
		"abcd|abcd|", "", 0},
	{"%n width", []string{"%5n|", "v"},
		"|", "", 0},
	{"%(fmt)T basics", []string{"[%(%Y-%m-%d %H:%M:%S)T][%10(%H)T][%-6.1(%H:%M)T][%()T][%(%s %z %Z)T]\n", "86399", "86399", "86399", "86399", "86399"},
		"[1970-01-01 23:59:59][        23][2     ][23:59:59][86399 +0000 UTC]\n", "", 0},
	{"%(...) without T", []string{"[%(%Y)x]", "5"},
		"[%(", "printf: warning: `x': invalid time format specification\nprintf: `Y': invalid format character\n", 1},
	{"%( unterminated", []string{"[%(abc"},
		"[%(abc", "printf: warning: `\x00': invalid time format specification\n", 0},
	{"strftime composites", []string{"%(%c|%x|%X|%r|%D|%e|%k|%l|%p|%P)T\n", "1700000000"},
		"Tue Nov 14 22:13:20 2023|11/14/23|22:13:20|10:13:20 PM|11/14/23|14|22|10|PM|pm\n", "", 0},
	{"strftime names and weeks", []string{"%(%a|%A|%b|%B|%h|%j|%u|%w|%U|%W|%V|%G|%g|%C|%y)T\n", "1700000000"},
		"Tue|Tuesday|Nov|November|Nov|318|2|2|46|46|46|2023|23|20|23\n", "", 0},
	{"strftime misc", []string{"%(%n|%t|%%|%R|%T|%F|%I|%s|%z|%Z|%:z|%Ec|%EC|%Ex|%OH|%Ob)T\n", "1700000000"},
		"\n|\t|%|22:13|22:13:20|2023-11-14|10|1700000000|+0000|UTC|%:z|Tue Nov 14 22:13:20 2023|20|11/14/23|22|Nov\n", "", 0},
	{"strftime flags", []string{"%(%#Z|%^p|%#p|%-j|%3j|%_j|%-10d|%^10b|%0e|%-e|%_H|%-I|%-C|%#A|%#a)T\n", "1700000000"},
		"utc|PM|pm|318|318|318|        14|       NOV|14|14|22|10|20|TUESDAY|TUE\n", "", 0},
	{"strftime flags 2", []string{"%(%-d|%_m|%05Y|%^a|%#b|%^B|%10A|%-H|%_5d|%Ey|%Od|%q|%+|%J|%)T\n", "1700000000"},
		"14|11|02023|TUE|NOV|NOVEMBER|   Tuesday|22|   14|23|14|%q|%+|%J|%\n", "", 0},
	{"strftime flags 3", []string{"%(%-10A|%-5H|%_-5M|%-_5S|%^-8b|%010A|%+6Y|%+Y|%0Y|%_Y|%-y)T|", "1700000000"},
		"   Tuesday|   22|   13|   20|     NOV|000Tuesday|%+6Y|%+Y|2023|2023|23|", "", 0},
	{"strftime epoch weeks", []string{"%(%U %W %V %G %g %j)T\n", "0"},
		"00 00 01 1970 70 001\n", "", 0},
	{"strftime new year weeks", []string{"%(%U %W %V %G %g)T\n", "1704067200"},
		"00 01 01 2024 24\n", "", 0},
	{"strftime far years", []string{"%(%Y)T|%(%Y)T\n", "-62135596800", "99999999999999"},
		"1|3170843\n", "", 0},
	{"strftime empty arg is epoch", []string{"%(%s|%Y)T", ""},
		"0|1970", "", 0},
	{"strftime invalid number", []string{"%(%s)T|", "x"},
		"0|", "printf: x: invalid number\n", 1},
	{"strftime reused", []string{"%(%a %d %b)T|", "1", "2", "3"},
		"Thu 01 Jan|Thu 01 Jan|Thu 01 Jan|", "", 0},
	{"strftime nested parens", []string{"%((x))T|", "0"},
		"(x)|", "", 0},
	{"strftime dates", []string{"%(%Y-%m-%d %H:%M:%S %A %B %c)T|%(%Y-%m-%d %H:%M:%S %A %B %c)T|%(%Y-%m-%d %H:%M:%S %A %B %c)T\n", "1709251199", "1735689599", "951782400"},
		"2024-02-29 23:59:59 Thursday February Thu Feb 29 23:59:59 2024|2024-12-31 23:59:59 Tuesday December Tue Dec 31 23:59:59 2024|2000-02-29 00:00:00 Tuesday February Tue Feb 29 00:00:00 2000\n", "", 0},
	{"strftime result over 127 bytes is dropped", []string{"%(%c|%x|%X|%r|%D|%e|%k|%l|%p|%P|%a|%A|%b|%B|%h|%j|%u|%w|%U|%W|%V|%G|%g|%C|%y|%n|%t|%%|%R|%T|%F|%I)T|\n", "1700000000"},
		"|\n", "", 0},
	{"repeat a character", []string{"x%.0s", "1", "2", "3", "4", "5"},
		"xxxxx", "", 0},
	{"key=quoted value", []string{"%s=%q\n", "k", "v v"},
		"k=v\\ v\n", "", 0},
	{"zero-padded clock", []string{"%03d:%02d\n", "7", "5", "11", "3"},
		"007:05\n011:03\n", "", 0},
	{"utf-8 text", []string{"%s\n", "héllo wörld"},
		"héllo wörld\n", "", 0},
	{"utf-8 width counts bytes", []string{"%-8s|\n", "日本"},
		"日本  |\n", "", 0},
	{"utf-8 text in the format", []string{"é%s→\n", "x"},
		"éx→\n", "", 0},
	{"%n without a shell checks the name only", []string{"ab%n\n", "1x"},
		"ab", "printf: `1x': not a valid identifier\n", 1},
	{"glibc's long sequences as character codes", []string{"%x %x %x %x %x\n", "'\xf4\x91\x84\x91", "'\xf7\xbf\xbf\xbf", "'\xf8\x88\x80\x80\x80", "'\xf0\x80\x80\x80", "'\xed\xa0\x80"},
		"111111 1fffff 200000 f0 ed\n", "", 0},
}

func TestBashPrintf(t *testing.T) {
	for _, tc := range printfCases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := runPrintf(&out, &errOut, tc.args, time.UTC)
			if out.String() != tc.stdout || errOut.String() != tc.stderr || status != tc.status {
				t.Errorf("printf %q\n got stdout=%q stderr=%q status=%d\nwant stdout=%q stderr=%q status=%d",
					tc.args, out.String(), errOut.String(), status, tc.stdout, tc.stderr, tc.status)
			}
		})
	}
}

// TestShellQuoteQ covers the %q rules of docs/language.md#prompts-at-run-time (outputs from bash).
func TestShellQuoteQ(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"plain", "plain"},
		{"a b", `a\ b`},
		{"two  spaces", `two\ \ spaces`},
		{"a\tb", `$'a\tb'`},
		{"a\nb", `$'a\nb'`},
		{"\a\b\f\v\r\x1b", `$'\a\b\f\v\r\E'`},
		{"\x01\x7f", `$'\001\177'`},
		{"it's\n", `$'it\'s\n'`},
		{"back\\slash\n", `$'back\\slash\n'`},
		{`say "hi"` + "\n", `$'say "hi"\n'`},
		{"#comment", `\#comment`},
		{"a#b", "a#b"},
		{"~", `\~`},
		{"~/dir", `\~/dir`},
		{"a~b", "a~b"},
		{"x=~", `x=\~`},
		{"p:~q", `p:\~q`},
		{"it's", `it\'s`},
		{`say "hi"`, `say\ \"hi\"`},
		{`a\b`, `a\\b`},
		{"!\"$&'()*,;<>?[\\]^`{|}", "\\!\\\"\\$\\&\\'\\(\\)\\*\\,\\;\\<\\>\\?\\[\\\\\\]\\^\\`\\{\\|\\}"},
		{"%@+-_.,/:=", `%@+-_.\,/:=`},
		{"héllo wörld", `héllo\ wörld`},
		{"\u00a0", "\u00a0"},
		{"\u2028", `$'\342\200\250'`},
		{"é\xc3", `$'é\303'`},
	}
	for _, tc := range tests {
		if got := shellscan.QuoteQ(tc.in); got != tc.want {
			t.Errorf("QuoteQ(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestBuiltinHandlers runs echo and printf installed with
// interp.BuiltinHandler in a runner; the expected output is bash 5.2's
// (stderr without bash's "line N: " prefix).
func TestBuiltinHandlers(t *testing.T) {
	script := `printf -v x '%s-%s' a "\$(b)'c"; echo "$x"
printf -vx '%05.1f' 3.14159; echo "$x"
printf -v 'a[1]' %s z; echo "${a[1]}"
f() { local y; printf -v y %s loc; echo "in $y"; }; f; echo "out [${y-unset}]"
printf -v 1x %s a; echo "s=$?"
printf -v x %d abc; echo "s=$? [$x]"
printf -v x; echo "s=$?"
readonly r; printf -v r x; echo "s=$?"
echo() { builtin echo "wrapped: $*"; }; echo hi; command echo plain
shopt -s xpg_echo; builtin echo 'a\tb'
builtin echo "$(printf 'x%.0s' 1 2)" | cat; ( printf 'y%.0s' 1 2 )
`
	want := "a-$(b)'c\n003.1\nz\nin loc\nout [unset]\n" +
		"printf: `1x': not a valid identifier\ns=2\n" +
		"printf: abc: invalid number\ns=1 [0]\n" +
		"printf: usage: printf [-v var] format [arguments]\ns=2\n" +
		"r: readonly variable\ns=1\n" +
		"wrapped: hi\nplain\na\tb\nxx\nyy"
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	r, err := interp.New(interp.StdIO(nil, &out, &out),
		interp.BuiltinHandler("echo", Echo), interp.BuiltinHandler("printf", Printf))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), file); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestBashPrintfWriteError(t *testing.T) {
	var errOut bytes.Buffer
	if status := bashPrintf(failingWriter{}, &errOut, []string{"%s\n", "x"}); status != 1 {
		t.Errorf("status = %d, want 1", status)
	}
	if want := "printf: write error: Broken pipe\n"; errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
}

// TestShellLocation checks %(fmt)T's zone: the exported TZ, UTC for an
// empty one, /etc/localtime's without it (outputs from bash).
func TestShellLocation(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"TZ=Asia/Tokyo"}, "2019-05-16 12"},
		{[]string{"TZ=US/Eastern"}, "2019-05-15 23"},
		{[]string{"TZ="}, "2019-05-16 03"},
	} {
		var out bytes.Buffer
		runPrintf(&out, &out, []string{"%(%Y-%m-%d %H)T", "1557978599"}, shellLocation(expand.ListEnviron(tc.env...)))
		if out.String() != tc.want {
			t.Errorf("%q: got %q, want %q", tc.env, out.String(), tc.want)
		}
	}
	if name := shellLocation(expand.ListEnviron()).String(); name != "Local" && name != "UTC" {
		t.Errorf("without TZ the zone is /etc/localtime's (or UTC), got %q", name)
	}
}

// TestBashPrintfTimeDefault checks that %(fmt)T without an argument, or
// with -1, is the current time, and -2 the time the program started.
func TestBashPrintfTimeDefault(t *testing.T) {
	for _, args := range [][]string{{"%(%s)T"}, {"%(%s)T", "-1"}, {"%(%s)T", "-2"}} {
		var out bytes.Buffer
		before := time.Now().Unix()
		if status := bashPrintf(&out, &out, args); status != 0 {
			t.Fatalf("printf %q: status %d", args, status)
		}
		got, err := strconv.ParseInt(out.String(), 10, 64)
		want := before
		if len(args) > 1 && args[1] == "-2" {
			want = shellStart.Unix()
		}
		if err != nil || got < want || got > time.Now().Unix() {
			t.Errorf("printf %q = %q, want about %d", args, out.String(), want)
		}
	}
}

// FuzzBashPrintf checks that no format or arguments make printf panic,
// return an unexpected status, or change text without conversions. The
// arguments are separated by \x1f.
func FuzzBashPrintf(f *testing.F) {
	for _, tc := range printfCases {
		if len(tc.args) > 0 {
			f.Add(tc.args[0], strings.Join(tc.args[1:], "\x1f"))
		}
	}
	f.Fuzz(func(t *testing.T, format, rest string) {
		args := []string{format}
		if rest != "" {
			args = append(args, strings.Split(rest, "\x1f")...)
		}
		// Widths and precisions are honoured as bash does, up to INT_MAX
		// bytes of padding; keep the numbers small enough to stay fast.
		for _, a := range args {
			if hasHexRun(a, 6) {
				t.Skip()
			}
		}
		var out, errOut bytes.Buffer
		status := runPrintf(&out, &errOut, args, time.UTC)
		if status < 0 || status > 2 {
			t.Fatalf("printf %q: status %d", args, status)
		}
		plain := format
		if i := strings.IndexByte(plain, 0); i >= 0 {
			plain = plain[:i]
		}
		if !strings.ContainsAny(plain, "%\\") && !strings.HasPrefix(plain, "-") && plain != "" &&
			(out.String() != plain || status != 0) {
			t.Fatalf("printf %q = %q (status %d), want the format back", args, out.String(), status)
		}
	})
}

// hasHexRun reports whether s has n hex digits in a row.
func hasHexRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if isHexDigit(s[i]) {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// TestBashPrintfLineBuffered checks the order of printf's output and its
// messages when both go to one place (`printf … 2>&1`): bash's stdout is
// line-buffered, so a message comes after the lines written before it and
// before a line it interrupts (found by the fuzzer's long run; outputs
// from bash 5.2.15, its "bash: line 1: " prefix left out).
func TestBashPrintfLineBuffered(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"%x %o\n", "one", "two", "words", "three"},
			"printf: one: invalid number\nprintf: two: invalid number\n0 0\nprintf: words: invalid number\nprintf: three: invalid number\n0 0\n"},
		{[]string{"%d %d\n", "1", "x", "3", "y"},
			"printf: x: invalid number\n1 0\nprintf: y: invalid number\n3 0\n"},
		{[]string{"%x\n%o|", "a", "b", "c", "d"},
			"printf: a: invalid number\n0\nprintf: b: invalid number\nprintf: c: invalid number\n0|0\nprintf: d: invalid number\n0|"},
	} {
		var both bytes.Buffer
		if status := runPrintf(&both, &both, tc.args, time.UTC); status != 1 || both.String() != tc.want {
			t.Errorf("printf %q 2>&1\n got %q (status %d)\nwant %q (status 1)", tc.args, both.String(), status, tc.want)
		}
	}
}

// printf -v into a readonly variable under errexit ends the shell with
// status 1, even in a function called as an if condition and left of ||
// (bash's err_readonly); the EXIT trap runs. What bash 5.2 prints.
func TestBuiltinPrintfReadonlyErrexit(t *testing.T) {
	script := `set -e; trap 'echo "bye $?"' EXIT; readonly r=1
f() { printf -v r x || echo "or $?"; echo in; }
if f; then echo then; fi; echo next
`
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	r, err := interp.New(interp.StdIO(nil, &out, &out), interp.BuiltinHandler("printf", Printf))
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(context.Background(), file)
	if st, ok := interp.IsExitStatus(err); !ok || st != 1 {
		t.Errorf("Run = %v, want exit status 1", err)
	}
	if got, want := out.String(), "r: readonly variable\nbye 1\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
