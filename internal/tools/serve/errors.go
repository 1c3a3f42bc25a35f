package serve

// This file answers: what does an error look like on the wire?

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// Error codes of the API ({error:{code,message}}).
const (
	codeBadArgs          = "E_BAD_ARGS"
	codeUnauthorized     = "E_UNAUTHORIZED"
	codeForbidden        = "E_FORBIDDEN"
	codeNotFound         = "E_NOT_FOUND"
	codeMethod           = "E_METHOD_NOT_ALLOWED"
	codeIdempotency      = "E_IDEMPOTENCY_CONFLICT"
	codeRunTerminal      = "E_RUN_TERMINAL"
	codeTampered         = "E_TAMPERED"
	codeNotReceiving     = "E_NOT_RECEIVING"
	codeTooLarge         = "E_TOO_LARGE"
	codeUnsupportedMedia = "E_UNSUPPORTED_MEDIA_TYPE"
	codeTooManyRuns      = "E_TOO_MANY_RUNS"
	codeUnavailable      = "E_UNAVAILABLE"
	codeInternal         = "E_INTERNAL"
)

type apiError struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError answers with status and {error:{code,message}}.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, apiError{Error: errorBody{Code: code, Message: message}})
}

// writeJSON answers with v as JSON (HTML characters left as they are: the
// API is not a page).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status, b = http.StatusInternalServerError, *bytes.NewBufferString(`{"error":{"code":"E_INTERNAL","message":"cannot encode the answer"}}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
