package hooks

import (
	"strconv"

	"github.com/jaiph-go/jaiph/internal/event"
)

// payload builds a compact JSON object whose keys keep the order in which
// they are added (docs/cli.md#hooks gives the order per event).
type payload struct{ b []byte }

func (p *payload) key(k string) {
	if len(p.b) == 0 {
		p.b = append(p.b, '{')
	} else {
		p.b = append(p.b, ',')
	}
	p.b = event.AppendJSONString(p.b, k)
	p.b = append(p.b, ':')
}

func (p *payload) str(k, v string) *payload {
	p.key(k)
	p.b = event.AppendJSONString(p.b, v)
	return p
}

// optStr adds the key only when v is non-empty (JSON.stringify drops
// undefined fields).
func (p *payload) optStr(k, v string) *payload {
	if v != "" {
		p.str(k, v)
	}
	return p
}

func (p *payload) num(k string, v int64) *payload {
	p.key(k)
	p.b = strconv.AppendInt(p.b, v, 10)
	return p
}

func (p *payload) bytes() []byte {
	if len(p.b) == 0 {
		return []byte("{}")
	}
	return append(p.b, '}')
}
