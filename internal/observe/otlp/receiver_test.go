package otlp_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an in-process OTLP/HTTP collector: it decodes every POST
// /v1/traces body as the protobuf ExportTraceServiceRequest.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*collectortrace.ExportTraceServiceRequest
	headers  []http.Header
	bad      []string // what was not a well-formed export
	// refuse are the statuses to answer the next requests with, in
	// order, with Retry-After set to retryAfter when it is not "".
	refuse     []int
	retryAfter string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		var rd io.Reader = q.Body
		if q.Header.Get("Content-Encoding") == "gzip" {
			if z, err := gzip.NewReader(q.Body); err == nil {
				rd = z
			}
		}
		body, _ := io.ReadAll(rd)
		req := &collectortrace.ExportTraceServiceRequest{}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.headers = append(r.headers, q.Header)
		if len(r.refuse) > 0 {
			if r.retryAfter != "" {
				w.Header().Set("Retry-After", r.retryAfter)
			}
			http.Error(w, "not now", r.refuse[0])
			r.refuse = r.refuse[1:]
			return
		}
		switch {
		case q.Method != http.MethodPost || q.URL.Path != "/v1/traces":
			r.bad = append(r.bad, q.Method+" "+q.URL.Path)
		case q.Header.Get("Content-Type") != "application/x-protobuf":
			r.bad = append(r.bad, "content type "+q.Header.Get("Content-Type"))
		case proto.Unmarshal(body, req) != nil:
			r.bad = append(r.bad, "undecodable body")
		default:
			r.requests = append(r.requests, req)
			out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(out)
			return
		}
		http.Error(w, "bad request", http.StatusBadRequest)
	}))
	t.Cleanup(r.Close)
	return r
}

// span is a received span with its resource and children.
type span struct {
	*tracepb.Span
	resource map[string]string
	children []*span
}

// trace is what the receiver got, as a tree; it fails the test unless there
// is exactly one trace with one root.
func (r *receiver) trace(t *testing.T) *span {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bad) > 0 {
		t.Fatalf("receiver got malformed requests: %v", r.bad)
	}
	byID := map[string]*span{}
	var all []*span
	for _, req := range r.requests {
		for _, rs := range req.ResourceSpans {
			res := map[string]string{}
			for _, kv := range rs.Resource.GetAttributes() {
				res[kv.Key] = value(kv.Value)
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					sp := &span{Span: s, resource: res}
					byID[string(s.SpanId)] = sp
					all = append(all, sp)
				}
			}
		}
	}
	var roots []*span
	for _, s := range all {
		if len(s.ParentSpanId) == 0 {
			roots = append(roots, s)
			continue
		}
		p := byID[string(s.ParentSpanId)]
		if p == nil {
			t.Fatalf("span %q has a parent that was not exported", s.Name)
		}
		if string(p.TraceId) != string(s.TraceId) {
			t.Fatalf("span %q is in another trace than its parent", s.Name)
		}
		p.children = append(p.children, s)
	}
	if len(roots) != 1 {
		t.Fatalf("want one root span, got %d (of %d spans)", len(roots), len(all))
	}
	for _, s := range all {
		sort.SliceStable(s.children, func(i, j int) bool {
			return s.children[i].seq() < s.children[j].seq()
		})
	}
	return roots[0]
}

func (s *span) seq() int {
	n, _ := strconv.Atoi(s.attr("jaiph.seq"))
	return n
}

func (s *span) attr(k string) string {
	for _, kv := range s.Attributes {
		if kv.Key == k {
			return value(kv.Value)
		}
	}
	return ""
}

func value(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *commonpb.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	}
	return fmt.Sprint(v)
}

// shown are the attributes render prints: the ones that do not change from
// run to run (ids, paths and times are checked on their own).
var shown = []string{"jaiph.func", "jaiph.status", "jaiph.dispatched", "jaiph.channel",
	"jaiph.sender", "jaiph.target", "jaiph.inbox_seq", "jaiph.message", "jaiph.payload_preview"}

// render draws the tree one span per line, its events below it: name,
// status, the stable attributes and params.
func render(s *span) string {
	var b strings.Builder
	var walk func(s *span, indent string)
	walk = func(s *span, indent string) {
		fmt.Fprintf(&b, "%s%s", indent, s.Name)
		if s.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
			fmt.Fprintf(&b, " ERROR(%s)", s.Status.GetMessage())
		}
		writeAttrs(&b, s.Attributes)
		b.WriteString("\n")
		for _, e := range s.Events {
			fmt.Fprintf(&b, "%s  * %s", indent, e.Name)
			writeAttrs(&b, e.Attributes)
			b.WriteString("\n")
		}
		for _, c := range s.children {
			walk(c, indent+"  ")
		}
	}
	walk(s, "")
	return b.String()
}

func writeAttrs(b *strings.Builder, kvs []*commonpb.KeyValue) {
	for _, k := range shown {
		for _, kv := range kvs {
			if kv.Key == k {
				fmt.Fprintf(b, " %s=%q", strings.TrimPrefix(k, "jaiph."), value(kv.Value))
			}
		}
	}
	for _, kv := range kvs {
		if strings.HasPrefix(kv.Key, "jaiph.param.") {
			fmt.Fprintf(b, " %s=%q", strings.TrimPrefix(kv.Key, "jaiph."), value(kv.Value))
		}
	}
}
