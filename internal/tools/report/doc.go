// Package report serves a workspace's runs over HTTP for `jaiph report`: a
// read-only JSON API over the run directories under one runs root
// (<root>/<date>/<run>/run_summary.jsonl and the step artifacts beside it),
// and the browser UI's static files from an fs.FS it is given.
//
// It imports no runtime: summaries are tailed from disk as they grow (each
// run keeps its read offset; only new complete lines are parsed; a torn or
// half-written last line waits for its newline; lines that are not JSON are
// skipped), and a run's status comes from the runs package (run.end, the
// run-directory lock).
//
// # API (the reference's, Jaiph v0.5.0, plus the additions marked +)
//
// Only GET and HEAD are served (anything else: 405). JSON bodies are
// `application/json; charset=utf-8`, `Cache-Control: no-store`. A run is
// named by its path relative to the runs root, "<date>/<run>", URL-encoded
// as ONE path segment (encodeURIComponent: "2026-11-23%2F07-19-02-x.jh").
//
// GET /api/runs?limit=50&page=1&offset=&status=&date=&q=
//
//	{"runs": [Run…], "total": N, "page": P, "page_size": L, "offset": O+}
//
// Newest first (started_at, then path). While `jaiph report`'s first full
// read of the runs goes on (seconds for thousands of runs), an unfiltered
// list is cut from an index of the runs' start times (each summary read up
// to its first event) and only the page's runs are read; the answer is the
// one the full read gives. Filtered lists wait for the full read. limit is 1..200 (default 50); page
// starts at 1; offset (+) overrides page. status filters on Run.status,
// date on the path's "<date>/" prefix, q (case-insensitive) on path, source
// and run_id. Run:
//
//	{"id": "<encoded path>", "path": "<date>/<run>", "run_id": "…",
//	 "source": "x.jh", "started_at": "…Z"|null, "ended_at": "…Z"|null,
//	 "status": "running"|"completed"|"failed"|"interrupted"+,
//	 "step_count": n, "step_completed": n, "step_running": n,
//	 "step_open": n+, "signal": "SIGINT"+,
//	 "failed": bool, "resumed": bool+, "version": n+,
//	 "duration_ms": n|null+, "end_unknown": true+, "dead_letters": n+,
//	 "redriven": true+, "note": "…"+, "integrity": "sealed"|"unsealed"|"tampered"|"unverifiable"+,
//	 "integrity_note": "…"+}
//
// status (+ differs from the reference, which guesses from the summary):
// "running" only while the live jaiph holds the run directory's lock;
// "completed"/"failed" from run.end (or, for a run without records, the
// root step's STEP_END); a run that never recorded its end and whose lock
// is free (killed, kill -9) is "interrupted" and never active. failed is
// true when a step of the latest attempt ended non-zero (a resumed run
// starts counting afresh at RUN_RESUMED). version (+) grows whenever the
// run's summary or status changes: poll it to know when to refetch a tree.
// duration_ms (+) is the run's duration as `jaiph runs` computes it (its
// records, or the root step's elapsed_ms; null while it runs): the
// summary's whole-second timestamps cannot time a sub-second run.
// end_unknown (+) marks a killed run, whose duration runs to its last
// event (a lower bound). dead_letters and redriven (+) are `jaiph runs`'
// facts and note (+) its NOTE column's words for them; the status stays
// the same set of words. integrity (+) is `jaiph verify`'s verdict on the
// run's summary and journal (docs/security.md), checked once the run is no
// longer running and again whenever its summary changes (a journal or key
// changed alone is seen after a restart); a tampered run's note names the
// first bad line ("tampered: run_summary.jsonl line 6"), an unverifiable
// one's why ("unverifiable: no key"), and the pages show a badge.
// integrity_note (+) is that part of note alone, so that a page showing
// it in the badge does not repeat it.
//
// step_count counts the steps started. In a run that is over but was
// stopped (+; the reference counts them completed, or running): the steps
// it was stopped in are step_open, not step_completed: a killed run's
// steps that never ended, and an interrupted run's that its signal ended
// (status 128+n of the signal run.end names, in signal (+)).
//
// GET /api/runs/{run} (+): the one Run above. 404 {"error":"run_not_found"}.
//
// GET /api/active
//
//	{"runs": [{"path", "relPath", "run_id", "source", "status": "running",
//	  "step_total", "step_completed", "step_running",
//	  "percent": 0..99|null, "current_step_label": "kind:name"|null}]}
//
// current_step_label names the innermost running step (+; the reference
// names the first, which is the root workflow while any child runs): the
// deepest open one, the latest started of those as deep.
//
// GET /api/runs/{run}/tree
//
//	{"run_id", "path", "steps": [Step…], "status"+, "version"+, "logs": [Log…]+}
//
// Step (children sorted by seq; a step whose parent is unknown is a root):
//
//	{"id", "parent_id": "…"|null, "seq": n|null, "depth": n|null, "kind",
//	 "name", "func", "params": [["name","value"]…], "status": n|null,
//	 "elapsed_ms": n|null, "out_file", "err_file", "out_content",
//	 "err_content", "running": bool, "replayed": bool+, "interrupted": true+, "worker"+, "lost"+,
//	 "started_at": "…Z"|null+, "ended_at": "…Z"|null+, "logs": [Log…]+,
//	 "children": [Step…], "retries": [Retry…]+, "letters": [Letter…]+}
//
// retries (+, omitted when none) are a prompt's failed attempts that
// agent.retries retried (PROMPT_RETRY): {"attempt", "status", "delay_ms",
// "out_file", "err_file", "ts"}; letters (+, omitted when none) an
// orchestrator's failed deliveries (INBOX_RETRY, INBOX_DEAD):
// {"type": "retry"|"dead", "inbox_seq", "channel", "target", "attempt"
// (the failed one, or the number made for a dead letter), "status",
// "payload_ref" (dead letters), "ts"}.
//
// started_at (+) is the STEP_START's ts, ended_at (+) the STEP_END's (null
// while running, and for a step a killed run left open); a replayed step's
// are both its STEP_REPLAYED's.
//
// In a run that is not running (+), no step is: one it left open (killed)
// has "running": false and "status": null. interrupted (+, omitted when
// false) marks the steps a stopped run was stopped in (see step_open):
// those, and those its signal ended.
// A step keeps its STEP_START params after STEP_END (+; the reference
// empties them). replayed (+) marks a call `jaiph resume` replayed from the journal
// (STEP_REPLAYED) instead of running it. worker (+, omitted when "") is
// the `jaiph worker` that ran a broker run's delivered target; lost (+,
// omitted when "") says why that attempt ended without its worker's
// result (the worker was killed, stopped renewing its lease, or handed it
// back), or that `jaiph resume` ended a step the killed attempt left open,
// its status then being the one the run recorded for it. Log (+) is one `log`/`logerr` line:
//
//	{"type": "LOG"|"LOGERR", "message", "ts", "depth", "after_seq": n}
//
// attached to the step it was logged in (the latest open step one level
// up); after_seq is the seq of the last step started before it, so a UI
// shows it after the children whose seq <= after_seq, as the terminal tree
// does. A log no open step claims goes to the tree's top-level "logs".
//
// GET /api/runs/{run}/aggregate: text/plain, every step by seq:
// "\n--- seq N kind name (id) ---\n" then its .out file (or out_content)
// and "\n". With ?stderr=1 (+) each step's non-blank .err (or
// err_content) follows under "--- seq N kind name (id) stderr ---\n".
//
// GET /api/runs/{run}/steps/{id}/output
//
//	{"out_content", "err_content", "out_truncated", "err_truncated",
//	 "out_file", "err_file"}    (contents cut at 64 KiB)
//
// GET /api/runs/{run}/steps/{id}/logs?stream=out|err: the step's .out (or
// .err) file as text/plain; 404 with an empty body when it has none.
//
// A step without STEP_END (running, or left open by a killed run) has no
// paths in the summary yet; its artifacts are written live under the
// runtime's names, "<seq %06d>-<func with every character but
// [A-Za-z0-9_.-] as _>.out|.err" in the run directory, and /logs serves
// those (+; what is written so far, for a UI to tail) and /output names
// and previews them (+; the reference has only what STEP_END says).
//
// GET /api/runs/{run}/steps/{id}/raw?stream=out|err (+): the same file
// (or, without one, the summary's copy) as a download to save:
// text/plain, `X-Content-Type-Options: nosniff`, `Content-Disposition:
// attachment; filename=<seq>-<func>.stdout.txt` (or .stderr.txt), and a
// CSP that runs nothing; 404 with an empty body when the step wrote
// nothing to that stream. The bytes are the step's, escape sequences
// included: the page renders them (ui/static/assets/log.js), the server
// never turns a log into HTML.
//
// GET /api/runs/{run}/files (+): the files the workflow wrote into its
// run directory ($JAIPH_RUN_DIR/…, artifacts/ included), by path:
//
//	{"files": [{"path": "artifacts/sub/a.txt", "size": n, "mtime": "…Z"}…],
//	 "truncated": bool}
//
// Every regular file but jaiph's own (run_summary.jsonl, .seq, the steps'
// NNNNNN-*.out|.err, inbox/), at most 1,000 (then truncated). It is read
// through an os.Root of the run directory: a symlink that leads out of it
// is not listed, nor is a symlinked directory followed.
//
// GET /api/runs/{run}/files/{path} (+): one of those files, each path
// segment URL-encoded: application/octet-stream, nosniff, attachment,
// credentials masked as in the logs. A path with an empty, . or ..
// segment (encoded or not), or absolute, is 400 {"error":"bad_path"};
// one of jaiph's own files, a directory, a missing file or a symlink out
// of the run directory is 404 {"error":"file_not_found"}.
//
// GET /api/runs/{run}/inbox (+): the run's messages and their deliveries,
// the document `jaiph inbox --json` prints (docs/inbox-files.md); a run
// that sent nothing gives {"run_dir", "source": "", "messages": []}.
//
// GET /api/events (+): Server-Sent Events. (The UI's pages share one
// stream between tabs and hold it only while they show a running run;
// see ui/static/assets/common.js.) Each poll (--poll-ms) after
// which a run's version differs from the previous poll's, or a run went
// away, sends
//
//	event: runs
//	data: {"changed": ["<date>/<run>"…], "removed": [...]}
//
// (new runs are in changed), and ": ping" comments keep the stream open.
// A UI refetches the list, or the open run's tree, when its path is named.
//
// GET /api/config (+): {"poll_ms": n}, the server's --poll-ms (0 when
// unknown), for a UI that polls when the event stream is down.
//
// Errors: 400 {"error":"bad_run_id"} for a run path that leaves the runs
// root (.., %2e%2e, absolute, NUL); 404 {"error":"run_not_found"},
// {"error":"step_not_found"} or {"error":"not_found"}. A run directory
// that disappears while being read is 404 and leaves the list, never 500.
//
// Everything else is a static file of the UI's fs.FS ("/" is index.html),
// sent with a Content-Security-Policy that allows only this origin's own
// scripts, styles and requests (no inline script or style) and nosniff:
// Options.UI, or Config.UI for Serve (cmd/jaiph/report.go sets it); with
// none, a placeholder page. No file outside the runs root is
// ever served: run paths and artifact paths are resolved through symlinks
// and must stay inside it.
package report
