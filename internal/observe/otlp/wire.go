package otlp

import (
	"encoding/binary"
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The OTLP protobuf encoding of spans (opentelemetry-proto v1,
// collector/trace/v1.ExportTraceServiceRequest), written field by field.
// The generated Go types of go.opentelemetry.io/proto/otlp would bring its
// collector package, which links all of gRPC into every jaiph start, and
// even protowire runs an init that hashes the executable
// (docs/performance.md); the tests decode what this writes with the
// generated types.

// encodeRequest is the ExportTraceServiceRequest carrying spans, grouped by
// resource and instrumentation scope.
func encodeRequest(spans []sdktrace.ReadOnlySpan) []byte {
	type group struct {
		res    *resource.Resource
		scopes map[instrumentation.Scope][]sdktrace.ReadOnlySpan
		order  []instrumentation.Scope
	}
	var groups []*group
	byRes := map[attribute.Distinct]*group{}
	for _, s := range spans {
		res := s.Resource()
		key := res.Equivalent()
		g := byRes[key]
		if g == nil {
			g = &group{res: res, scopes: map[instrumentation.Scope][]sdktrace.ReadOnlySpan{}}
			byRes[key] = g
			groups = append(groups, g)
		}
		sc := s.InstrumentationScope()
		if _, ok := g.scopes[sc]; !ok {
			g.order = append(g.order, sc)
		}
		g.scopes[sc] = append(g.scopes[sc], s)
	}
	var req, buf []byte // buf: one span at a time, reused
	for _, g := range groups {
		var rs []byte
		rs = message(rs, 1, encodeAttrs(nil, 1, g.res.Attributes())) // Resource.attributes
		for _, sc := range g.order {
			var ss []byte
			var scope []byte
			scope = str(scope, 1, sc.Name)
			scope = str(scope, 2, sc.Version)
			ss = message(ss, 1, scope)
			for _, s := range g.scopes[sc] {
				buf = encodeSpan(buf[:0], s)
				ss = message(ss, 2, buf)
			}
			ss = str(ss, 3, sc.SchemaURL)
			rs = message(rs, 2, ss)
		}
		rs = str(rs, 3, g.res.SchemaURL())
		req = message(req, 1, rs)
	}
	return req
}

// encodeSpan appends the Span message's content to b.
func encodeSpan(b []byte, s sdktrace.ReadOnlySpan) []byte {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = bytesField(b, 1, tid[:])
	b = bytesField(b, 2, sid[:])
	b = str(b, 3, sc.TraceState().String())
	if p := s.Parent(); p.IsValid() {
		psid := p.SpanID()
		b = bytesField(b, 4, psid[:])
	}
	b = str(b, 5, s.Name())
	b = varint(b, 6, uint64(s.SpanKind())) // trace.SpanKind numbers are OTLP's
	b = fixed64(b, 7, uint64(s.StartTime().UnixNano()))
	b = fixed64(b, 8, uint64(s.EndTime().UnixNano()))
	b = encodeAttrs(b, 9, s.Attributes())
	b = varint(b, 10, uint64(s.DroppedAttributes()))
	for _, e := range s.Events() {
		var ev []byte
		ev = fixed64(ev, 1, uint64(e.Time.UnixNano()))
		ev = str(ev, 2, e.Name)
		ev = encodeAttrs(ev, 3, e.Attributes)
		ev = varint(ev, 4, uint64(e.DroppedAttributeCount))
		b = message(b, 11, ev)
	}
	b = varint(b, 12, uint64(s.DroppedEvents()))
	b = varint(b, 14, uint64(s.DroppedLinks()))
	var st []byte
	st = str(st, 2, s.Status().Description)
	switch s.Status().Code { // OTLP: 0 unset, 1 ok, 2 error
	case codes.Ok:
		st = varint(st, 3, 1)
	case codes.Error:
		st = varint(st, 3, 2)
	}
	b = message(b, 15, st)
	// flags: the W3C trace flags, and "is_remote is known (false)".
	b = appendTag(b, 16, wireFixed32)
	b = binary.LittleEndian.AppendUint32(b, uint32(sc.TraceFlags())|0x100)
	return b
}

// encodeAttrs appends each attribute as a KeyValue in field num.
func encodeAttrs(b []byte, num field, kvs []attribute.KeyValue) []byte {
	var v, e []byte // the AnyValue and the KeyValue, reused
	for _, kv := range kvs {
		v = v[:0]
		switch kv.Value.Type() {
		case attribute.BOOL:
			v = appendTag(v, 2, wireVarint)
			v = binary.AppendUvarint(v, boolInt(kv.Value.AsBool()))
		case attribute.INT64:
			v = appendTag(v, 3, wireVarint)
			v = binary.AppendUvarint(v, uint64(kv.Value.AsInt64()))
		case attribute.FLOAT64:
			v = appendTag(v, 4, wireFixed64)
			v = binary.LittleEndian.AppendUint64(v, math.Float64bits(kv.Value.AsFloat64()))
		default: // strings; slices (which jaiph never sets) as their text
			v = appendTag(v, 1, wireBytes)
			v = appendBytes(v, kv.Value.Emit())
		}
		e = str(e[:0], 1, string(kv.Key))
		e = message(e, 2, v)
		b = message(b, num, e)
	}
	return b
}

// The protobuf wire format: a field is a varint tag (number<<3 | wire
// type), then a varint, 8 or 4 little-endian bytes, or a length-prefixed
// byte string. Proto3 leaves zero scalars out.

type field uint64

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

func appendTag(b []byte, num field, typ uint64) []byte {
	return binary.AppendUvarint(b, uint64(num)<<3|typ)
}

func appendBytes[T []byte | string](b []byte, v T) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func boolInt(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

func message(b []byte, num field, m []byte) []byte {
	b = appendTag(b, num, wireBytes)
	return appendBytes(b, m)
}

func bytesField(b []byte, num field, v []byte) []byte { return message(b, num, v) }

func str(b []byte, num field, s string) []byte {
	if s == "" {
		return b
	}
	b = appendTag(b, num, wireBytes)
	return appendBytes(b, s)
}

func varint(b []byte, num field, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = appendTag(b, num, wireVarint)
	return binary.AppendUvarint(b, v)
}

func fixed64(b []byte, num field, v uint64) []byte {
	b = appendTag(b, num, wireFixed64)
	return binary.LittleEndian.AppendUint64(b, v)
}
