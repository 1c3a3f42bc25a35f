package mcpserver

import (
	"reflect"
	"strings"
	"testing"
)

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		body string
		want []string
	}{
		{`echo hi`, nil},
		{`echo "$1"`, []string{"$1"}},
		{"name=\"$1\"\nlocal target = \"${2:-prod}\"\necho \"$name $target\"", []string{"$1 name", "$2 target"}},
		{`run deploy "$3"`, []string{"$1", "$2", "$3"}},
		{"echo ${10}\nfor f in \"$@\"; do :; done", []string{"$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "…"}},
		{`echo "$*" $0 $$ $#`, []string{"…"}},
		{`price=$12`, []string{"$1 price"}}, // $12 is $1 then "2", as in bash
	} {
		if got := Params(strings.Split(tc.body, "\n")); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Params(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
