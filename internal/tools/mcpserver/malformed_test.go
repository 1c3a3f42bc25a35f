package mcpserver

import "testing"

// TestRefusal: a line the SDK could not decode is answered with the
// JSON-RPC error for it (and the id when it has one); a message or a batch
// of messages goes through.
func TestRefusal(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, ""},
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not JSON"}}` + "\n"},
		{`{"jsonrpc":"2.0","id":1,"method":`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not JSON"}}` + "\n"},
		{`42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"}}` + "\n"},
		{`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty or malformed batch"}}` + "\n"},
		{`{"id":7,"method":"ping"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: invalid message version tag \"\"; expected \"2.0\""}}` + "\n"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: parse error: invalid ID type map[string]interface {}"}}` + "\n"},
	} {
		if got := string(refusal([]byte(tc.line))); got != tc.want {
			t.Errorf("refusal(%s)\n got  %q\n want %q", tc.line, got, tc.want)
		}
	}
}
