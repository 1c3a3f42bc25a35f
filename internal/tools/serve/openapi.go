package serve

// This file answers: what does GET /openapi.json describe?
//
// The document is built here rather than by an OpenAPI library: its paths
// are the served workflows, known only at start-up, and each request body
// is a JSON Schema the workflow's parameters make — a few maps, where a
// framework (huma, kin-openapi) would want Go types per operation or
// bring a router and error format of its own.

import (
	"net/http"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
)

func (s *Server) openapi(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.document())
}

// document is the OpenAPI 3.1 description of the service.
func (s *Server) document() map[string]any {
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	jsonBody := func(schema any) map[string]any {
		return map[string]any{"application/json": map[string]any{"schema": schema}}
	}
	errResp := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": jsonBody(ref("Error"))}
	}
	runResp := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": jsonBody(ref("Run"))}
	}
	idParam := map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}
	paths := map[string]any{
		"/healthz": map[string]any{"get": map[string]any{"operationId": "healthz", "summary": "Liveness and readiness (no authentication)",
			"security": []any{}, "responses": map[string]any{"200": map[string]any{"description": "the server answers"}}}},
		"/v1/workflows": map[string]any{"get": map[string]any{"operationId": "listWorkflows", "summary": "The served workflows",
			"responses": map[string]any{"200": map[string]any{"description": "the workflows"}, "401": errResp("no or a refused credential")}}},
		"/v1/runs": map[string]any{"get": map[string]any{"operationId": "listRuns", "summary": "Your runs, newest first",
			"parameters": []any{
				map[string]any{"name": "limit", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
				map[string]any{"name": "offset", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 0, "default": 0}},
			},
			"responses": map[string]any{"200": map[string]any{"description": "{runs, total, limit, offset}", "content": jsonBody(map[string]any{
				"type": "object", "properties": map[string]any{"runs": map[string]any{"type": "array", "items": ref("Run")},
					"total": map[string]any{"type": "integer"}, "limit": map[string]any{"type": "integer"}, "offset": map[string]any{"type": "integer"}}})}}}},
		"/v1/runs/{id}": map[string]any{"get": map[string]any{"operationId": "getRun", "summary": "A run", "parameters": []any{idParam},
			"responses": map[string]any{"200": runResp("the run"), "404": errResp("no such run of yours")}}},
		"/v1/runs/{id}/events": map[string]any{"get": map[string]any{"operationId": "runEvents",
			"summary": "The run's events: NDJSON, or a live stream with Accept: text/event-stream", "parameters": []any{idParam},
			"responses": map[string]any{"200": map[string]any{"description": "the events", "content": map[string]any{
				"application/x-ndjson": map[string]any{"schema": map[string]any{"type": "string"}},
				"text/event-stream":    map[string]any{"schema": map[string]any{"type": "string"}}}},
				"404": errResp("no such run of yours"), "409": errResp("E_TAMPERED: the run's records do not verify")}}},
		"/v1/runs/{id}/artifacts": map[string]any{"get": map[string]any{"operationId": "listArtifacts", "summary": "The files the run published",
			"parameters": []any{idParam}, "responses": map[string]any{"200": map[string]any{"description": "{artifacts: [{path, size, mtime}]}"}}}},
		"/v1/runs/{id}/artifacts/{path}": map[string]any{"get": map[string]any{"operationId": "getArtifact", "summary": "One published file",
			"parameters": []any{idParam, map[string]any{"name": "path", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}},
			"responses": map[string]any{"200": map[string]any{"description": "the file", "content": map[string]any{
				"application/octet-stream": map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}}},
				"404": errResp("no such file"), "413": errResp("larger than JAIPH_SERVE_MAX_ARTIFACT_BYTES")}}},
		"/v1/runs/{id}/cancel": map[string]any{"post": map[string]any{"operationId": "cancelRun", "summary": "Stop a run (its programs and container)",
			"parameters": []any{idParam}, "responses": map[string]any{"200": runResp("the run, ended"), "409": errResp("E_RUN_TERMINAL: it ended already")}}},
	}
	for _, n := range s.names {
		wf := s.workflows[n]
		paths["/v1/workflows/"+n+"/runs"] = map[string]any{"post": map[string]any{
			"operationId": "run_" + n, "summary": "Start " + n, "description": wf.Description,
			"parameters": []any{
				map[string]any{"name": "wait", "in": "query", "description": "true: answer once the run ended", "schema": map[string]any{"type": "boolean"}},
				map[string]any{"name": "Idempotency-Key", "in": "header", "description": "a repeat returns the first run and starts nothing", "schema": map[string]any{"type": "string", "maxLength": 255}},
			},
			"requestBody": map[string]any{"required": false, "content": jsonBody(wf.schema())},
			"responses": map[string]any{
				"200": runResp("the run, ended (wait=true), or the Idempotency-Key's run"),
				"202": runResp("the run started; Location names it"),
				"400": errResp("E_BAD_ARGS"), "409": errResp("E_IDEMPOTENCY_CONFLICT"), "413": errResp("the body is over 1 MiB"),
				"415": errResp("the body is not application/json"), "429": errResp("E_TOO_MANY_RUNS"),
			}}}
	}
	str := map[string]any{"type": "string"}
	nullable := func(t string) map[string]any { return map[string]any{"type": []any{t, "null"}} }
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "jaiph serve", "version": buildinfo.Version(), "description": "The exported workflows of the served .jh files."},
		"paths":   paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
			"schemas": map[string]any{
				"Error": map[string]any{"type": "object", "required": []any{"error"}, "properties": map[string]any{"error": map[string]any{
					"type": "object", "required": []any{"code", "message"}, "properties": map[string]any{"code": str, "message": str}}}},
				"Run": map[string]any{"type": "object", "required": []any{"run_id", "workflow", "status", "started_at"}, "properties": map[string]any{
					"run_id": str, "workflow": str,
					"status":     map[string]any{"type": "string", "enum": []any{statusRunning, statusSucceeded, statusFailed, statusCancelled, statusInterrupted}},
					"started_at": map[string]any{"type": "string", "format": "date-time"}, "ended_at": nullable("string"),
					"exit_status": nullable("integer"), "signal": str, "result_text": str, "run_dir": str,
					"principal": str, "correlation_id": str, "integrity": str}},
			},
		},
		"security": []any{map[string]any{"bearer": []any{}}},
	}
}
