package mcpserver

// This file answers: what does `jaiph mcp` do with a line of its input that
// is not a JSON-RPC message? The SDK's stdio transport decodes the stream
// with one json.Decoder and ends the session at the first line it cannot
// decode, so one stray line (a client's log, a typo in a hand-written
// request) would cut every client off. JSON-RPC 2.0 has answers for
// such lines instead: -32700 (parse error) for text that is not JSON,
// -32600 (invalid request) for JSON that is no message. jaiph mcp sends
// that answer, drops the line and reads on.

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The JSON-RPC 2.0 error codes of lines the session never sees.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// refusal is the error response that answers line in place of the
// session, or nil when the session can read line (a message, or a
// non-empty batch of messages, that the SDK decodes).
func refusal(line []byte) []byte {
	if !json.Valid(line) {
		return errorResponse(nil, codeParseError, "Parse error: the line is not JSON")
	}
	if line[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(line, &batch) != nil || len(batch) == 0 {
			return errorResponse(nil, codeInvalidRequest, "Invalid Request: an empty or malformed batch")
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return errorResponse(nil, codeInvalidRequest, "Invalid Request: "+err.Error())
			}
		}
		return nil
	}
	if line[0] != '{' {
		return errorResponse(nil, codeInvalidRequest, "Invalid Request: a message is a JSON object")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorResponse(requestID(line), codeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return nil
}

// requestID is the id of a JSON object when it is one a response may
// carry (a string or a number), else nil (answered with id null).
func requestID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || c >= '0' && c <= '9' {
		return m.ID
	}
	return nil
}

// errorResponse is a JSON-RPC error response line.
func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(b, '\n')
}

// blank reports whether a line holds only white space (the decoder skips
// it).
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }
