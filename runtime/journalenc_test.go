package runtime

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// appendRecord writes what reads back as json.Marshal's line: every field
// of journalRecord set (a field added to the struct and not to
// appendRecord fails here), each omitted when empty, and strings of every
// kind (invalid UTF-8 reads back as U+FFFD from both).
func TestAppendRecord(t *testing.T) {
	full := &journalRecord{}
	v := reflect.ValueOf(full).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString("v" + v.Type().Field(i).Name)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"a", "b c"}))
		case reflect.Pointer:
			n := -7
			f.Set(reflect.ValueOf(&n))
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("field %s: a kind appendRecord does not know (%s)", v.Type().Field(i).Name, f.Kind())
		}
	}
	zero := 0
	records := []*journalRecord{full, {T: "start", ID: "/x#1"}, {T: "end", ID: "/x#1", Status: &zero, Args: []string{}}}
	for _, s := range []string{"", "plain", "q\"b\\s/", "\b\f\n\r\t\x00\x1f\x7f", "<a href=\"x\">&amp;</a>", "é 日本 🙂",
		"bad \xff \xe6\x97 end", "\u2028\u2029", "\xed\xa0\x80"} {
		records = append(records, &journalRecord{T: "send", ID: s, Args: []string{s, s}, Content: s, Value: s})
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rnd.IntN(12))
		for i := range b {
			b[i] = byte(rnd.IntN(256))
		}
		records = append(records, &journalRecord{T: "end", ID: string(b)})
	}
	for _, r := range records {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got := appendRecord(nil, r)
		var gotFields, wantFields map[string]any
		if err := json.Unmarshal(got, &gotFields); err != nil {
			t.Fatalf("appendRecord(%+v) wrote no JSON object: %v\n%s", r, err, got)
		}
		if err := json.Unmarshal(want, &wantFields); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotFields, wantFields) {
			t.Errorf("appendRecord(%+v)\n got %s\nwant %s", r, got, want)
		}
	}
}
