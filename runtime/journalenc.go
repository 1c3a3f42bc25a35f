package runtime

// This file answers: how does a journal record become its line? As a
// JSON object with json.Marshal's keys and omissions, its strings escaped
// by the events' encoder (journalenc_test.go holds it to decoding as
// json.Marshal's line does), without reflection: the journal's lines were
// a tenth of an inbox run's instructions through encoding/json.

import (
	"strconv"

	"github.com/jaiph-go/jaiph/internal/event"
)

// appendJSONString is the events' string encoding: any JSON decoder reads
// it back as json.Marshal's.
var appendJSONString = event.AppendJSONString

// appendRecord appends r as a JSON object, without a newline.
func appendRecord(b []byte, r *journalRecord) []byte {
	b = append(b, `{"t":`...)
	b = appendJSONString(b, r.T)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, r.ID)
	b = appendField(b, "kind", r.Kind)
	b = appendField(b, "callee", r.Callee)
	if len(r.Args) > 0 {
		b = append(b, `,"args":[`...)
		for i, a := range r.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a)
		}
		b = append(b, ']')
	}
	if r.Status != nil {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(*r.Status), 10)
	}
	b = appendField(b, "value", r.Value)
	b = appendField(b, "out", r.Out)
	b = appendField(b, "channel", r.Channel)
	b = appendField(b, "sender", r.Sender)
	b = appendField(b, "content", r.Content)
	b = appendField(b, "box", r.Box)
	if r.Redacted {
		b = append(b, `,"redacted":true`...)
	}
	return append(b, '}')
}

// appendField appends ,"k":v unless v is "" (omitempty).
func appendField(b []byte, k, v string) []byte {
	if v == "" {
		return b
	}
	b = append(append(append(b, ',', '"'), k...), '"', ':')
	return appendJSONString(b, v)
}
