package auth

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestScopeNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw     string
		want    []string
		wantErr bool
	}{
		{raw: ``, want: nil},
		{raw: `null`, want: nil},
		{raw: `""`, want: nil},
		{raw: `"jaiph:invoke  jaiph:inspect"`, want: []string{"jaiph:invoke", "jaiph:inspect"}},
		{raw: `["jaiph:invoke","jaiph:cancel"]`, want: []string{"jaiph:invoke", "jaiph:cancel"}},
		{raw: `[]`, want: nil},
		{raw: `42`, wantErr: true},
		{raw: `{"a":1}`, wantErr: true},
		{raw: `[1,2]`, wantErr: true},
	}
	for _, c := range cases {
		got, err := scopeNames(json.RawMessage(c.raw))
		same := reflect.DeepEqual(got, c.want) || len(got) == 0 && len(c.want) == 0
		if (err != nil) != c.wantErr || !same {
			t.Errorf("scopeNames(%s) = %q, %v; want %q, error %v", c.raw, got, err, c.want, c.wantErr)
		}
	}
}
