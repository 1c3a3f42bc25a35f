"use strict";
// One run: the step tree (/tree), a step's stdout and stderr (/output for
// the summary's copy and file names, /logs for the files, tailed while the
// step runs; /raw to download them; log.js renders them), the inbox
// (/inbox), every step's output (/aggregate) and the files the workflow
// wrote into its run directory (/files).

const address = new URLSearchParams(location.search);
const runPath = address.get("run") || "";
// A step and a tab can be linked to: run.html?run=…&step=<id>&tab=inbox,
// and a line of a step's log: …&step=<id>#out-L12 (or #err-L3).
const linkedStep = address.get("step");
const linkedTab = address.get("tab");
const api = `/api/runs/${encodeURIComponent(runPath)}`;
let selectedId = null;
let nodes = new Map(); // step id → tree node of the last /tree answer
let lastTree = "";
let tab = "step";
// runLive is true while the run runs (known from its first fetch): a step
// still open once it is over was cut off (killed run), not running.
let runLive = false;
// stopped are the innermost steps an interrupted or killed run was
// stopped in (interrupted, with no interrupted child): "stopped here".
let stopped = new Set();

// A log/logerr line ({type, message, after_seq}) sits after the sibling
// steps whose seq <= after_seq, where the terminal tree prints it.
function logItem(l) {
  const err = String(l.type).toUpperCase() === "LOGERR";
  return el("li", { class: err ? "log logerr" : "log" },
    el("span", { class: "log-tag" }, err ? "LOGERR" : "LOG"), " ",
    el("span", { class: "log-msg" }, l.message ?? ""));
}

function withLogs(steps, logs) {
  const out = [];
  const pending = [...(logs || [])];
  for (const c of steps || []) {
    while (pending.length && (pending[0].after_seq ?? -1) < (c.seq ?? Infinity)) out.push(logItem(pending.shift()));
    out.push(stepItem(c));
  }
  return out.concat(pending.map(logItem));
}

function paramsText(params) {
  if (!Array.isArray(params) || params.length === 0) return "";
  return params.map((p) => {
    const [k, v] = Array.isArray(p) ? p : [p.key ?? p.name, p.value];
    const short = String(v).length > 40 ? `${String(v).slice(0, 40)}…` : String(v);
    return `${k}="${short}"`;
  }).join(", ");
}

// attempts lists a prompt's retried attempts and an orchestrator's failed
// deliveries (retried, or dead letters: linked to the Inbox tab).
function attempts(n) {
  const items = [];
  for (const r of n.retries || []) {
    items.push(el("li", { class: "retry" }, `↻ attempt ${r.attempt} failed (exit ${r.status}), retried`));
  }
  for (const l of n.letters || []) {
    const what = `message ${l.inbox_seq} (${l.channel}) to ${l.target}`;
    const inbox = el("a", { href: `?run=${encodeURIComponent(runPath)}&tab=inbox`,
      onclick: (e) => { e.preventDefault(); showTab("inbox"); } }, what);
    items.push(l.type === "dead"
      ? el("li", { class: "dead" }, "✉ ", inbox, ` is a dead letter after ${l.attempt} attempts (exit ${l.status})`)
      : el("li", { class: "retry" }, "↻ ", inbox, `: attempt ${l.attempt} failed (exit ${l.status}), retried`));
  }
  return items.length ? el("ul", { class: "attempts muted small" }, ...items) : null;
}

function stepItem(n) {
  nodes.set(n.id, n);
  const st = stepStatus(n);
  const params = paramsText(n.params);
  const btn = el("button", {
    type: "button",
    class: `step${n.id === selectedId ? " selected" : ""}`,
    dataset: { id: n.id },
    "aria-pressed": n.id === selectedId ? "true" : "false",
    onclick: () => select(n.id),
  },
  statusBadge(st.key), " ",
  el("span", { class: "kind" }, n.kind || "step"), " ",
  el("span", { class: "name" }, n.name || n.func || n.id),
  params ? el("span", { class: "params" }, ` (${params})`) : null,
  n.elapsed_ms != null ? el("span", { class: "elapsed muted" }, ` ${fmtMs(n.elapsed_ms)}`) : null,
  n.replayed ? el("span", { class: "replayed", title: "completed in an earlier attempt; replayed by jaiph resume" }, " ↺ replayed") : null,
  stopped.has(n.id) ? el("span", { class: "stopped-here" }, " ◀ stopped here") : null,
  n.lost ? el("span", { class: "lost", title: n.lost }, " lost" + (n.worker ? ` on ${n.worker}` : "")) : null);
  const kids = withLogs(n.children, n.logs);
  return el("li", {}, btn, attempts(n), kids.length ? el("ul", {}, ...kids) : null);
}

// The run's row (/api/runs/{run}) names its status and version; the tree
// is refetched only when the version moves.
let lastVersion = null;

async function loadTree() {
  let run;
  try {
    run = await getJSON(api);
  } catch (e) {
    if (e.status !== 404 && e.status !== 400) throw e;
    document.getElementById("run-title").textContent = `No such run: ${runPath}`;
    document.getElementById("run-sub").textContent = "It was deleted, or the link is wrong.";
    return;
  }
  renderHeader(run);
  const live = run.status === "running";
  if (live !== runLive) lastTree = ""; // re-render the open steps' status
  runLive = live;
  if (run.version != null && run.version === lastVersion) return;
  const data = await getJSON(`${api}/tree`);
  lastVersion = run.version ?? null;
  const key = JSON.stringify(data);
  if (key === lastTree) return;
  lastTree = key;
  stopped = innermostStopped(data.steps);
  const host = document.getElementById("step-tree");
  const hadFocus = host.contains(document.activeElement) ? document.activeElement.dataset.id : null;
  nodes = new Map();
  const items = withLogs(data.steps, data.logs);
  // A resumed run has one root per attempt: name them.
  const roots = items.filter((li) => li.querySelector(":scope > button.step"));
  if (run.resumed && roots.length > 1) {
    roots.forEach((li, i) => li.prepend(el("p", { class: "attempt muted small" },
      i === 0 ? "Attempt 1" : `Attempt ${i + 1} (resumed)`)));
  }
  host.replaceChildren(items.length ? el("ul", { class: "tree" }, ...items)
    : el("p", { class: "muted" }, "No steps yet."));
  if (hadFocus) focusStep(hadFocus);
  renderHeader(run); // names the step it was stopped in
  if (selectedId && nodes.has(selectedId)) renderMeta(nodes.get(selectedId));
  else if (!selectedId) selectDefault(run);
  loadFiles().catch(showError);
}

// innermostStopped is the ids of the interrupted steps none of whose
// children is interrupted: where the run actually was when it stopped.
function innermostStopped(steps) {
  const out = new Set();
  const walk = (list) => {
    let any = false;
    for (const n of list || []) {
      const below = walk(n.children);
      if (n.interrupted && !below) out.add(n.id);
      any = any || n.interrupted || below;
    }
    return any;
  };
  walk(steps);
  return out;
}

// stepsText is the header's count of steps: those done out of those
// started, and those a stopped run left open.
function stepsText(run) {
  const done = run.step_completed ?? 0;
  const count = run.step_count ?? 0;
  if (run.status === "running") return `${done}/${count} steps done, ${run.step_running ?? 0} running`;
  if (!run.step_open) return `${done}/${count} steps`;
  const how = run.end_unknown ? "left open when it was killed"
    : run.signal ? `stopped by ${run.signal}` : "stopped";
  const where = [...stopped].map((id) => nodes.get(id)).filter(Boolean)
    .map((n) => `${n.kind || "step"} ${n.name || n.id}`);
  return `${done} of ${count} started steps done, ${run.step_open} ${how}` +
    (where.length ? ` (in ${where.join(", ")})` : "");
}

function renderHeader(run) {
  document.title = `${run.source || run.path} · Jaiph run`;
  const integ = integrityBadge(run);
  const status = run.status === "interrupted" && run.end_unknown ? "killed" : run.status;
  document.getElementById("run-title").replaceChildren(statusBadge(status), " ", ...(integ ? [integ, " "] : []),
    run.source || run.path);
  const sub = [run.path];
  if (run.run_id) sub.push(`run id ${run.run_id}`);
  sub.push(`started ${fmtTime(run.started_at)}`);
  sub.push(`duration ${runDuration(run)}`);
  if (runNote(run)) sub.push(runNote(run));
  sub.push(stepsText(run));
  if (run.resumed) sub.push("resumed: ↺ marks replayed steps");
  document.getElementById("run-sub").textContent = sub.join(" · ");
}

// A failed run opens at its last failed step (the deepest, in the latest
// attempt), a stopped one where it stopped; any other at its first step.
function selectDefault(run) {
  if (linkedStep && nodes.has(linkedStep)) {
    select(linkedStep, false);
    return;
  }
  let pick = nodes.values().next().value;
  if (run.status === "failed") {
    for (const n of nodes.values()) if (n.status != null && n.status !== 0) pick = n;
  } else if (stopped.size) {
    for (const n of nodes.values()) if (stopped.has(n.id)) pick = n;
  }
  if (pick) select(pick.id, false);
}

function focusStep(id) {
  const b = document.querySelector(`button.step[data-id="${CSS.escape(id)}"]`);
  if (b) b.focus();
}

function select(id, userAction = true) {
  selectedId = id;
  for (const b of document.querySelectorAll("button.step")) {
    const on = b.dataset.id === id;
    b.classList.toggle("selected", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  if (userAction) {
    if (/^#(out|err|all)-L\d+$/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search); // another step's line
    showTab("step");
  }
  remember();
  tail.out = tail.err = null;
  for (const v of Object.values(views)) {
    v.reset();
    v.pre.hidden = false;
    v.pre.classList.remove("empty");
  }
  for (const stream of ["out", "err"]) {
    const raw = document.getElementById(`${stream}-raw`);
    raw.hidden = true;
    raw.href = `${api}/steps/${encodeURIComponent(id)}/raw?stream=${stream}`;
  }
  search.run(search.term);
  const n = nodes.get(id);
  if (n) renderMeta(n);
  loadOutput().catch(showError);
}

function renderMeta(n) {
  document.getElementById("step-empty").hidden = true;
  document.getElementById("step-detail").hidden = false;
  const st = stepStatus(n);
  document.getElementById("step-title").replaceChildren(
    statusBadge(st.key), " ", `${n.kind || "step"} ${n.name || n.id}`);
  const rows = [
    ["status", st.word + (n.replayed ? " · ↺ replayed" : "") + (n.lost ? ` · lost: ${n.lost}` : "")],
    ["worker", n.worker || null],
    ["function", n.func],
    ["started", n.started_at ? fmtTime(n.started_at) : null],
    ["ended", n.ended_at ? fmtTime(n.ended_at) : null],
    ["elapsed", n.elapsed_ms != null ? fmtMs(n.elapsed_ms) : null],
    ["params", paramsText(n.params) || null],
    ["id", n.id],
  ];
  const dl = document.getElementById("step-meta");
  dl.replaceChildren(...rows.filter(([, v]) => v).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

// tail keeps what each stream showed, so a running step's output only
// grows (and the view stays scrolled to the end when it was there).
const tail = { out: null, err: null };
const views = {
  out: new LogView(document.getElementById("step-out"), "out"),
  err: new LogView(document.getElementById("step-err"), "err"),
};
const search = new LogSearch([views.out.pre, views.err.pre], document.getElementById("log-count"));

// logText is the step's file for stream, when /output names one (asking
// for a file a step does not have would be a 404 in the console per step).
async function logText(stream, file) {
  if (!file) return null; // no file: the summary's copy stands in
  const res = await fetch(`${api}/steps/${encodeURIComponent(selectedId)}/logs?stream=${stream}`, { cache: "no-store" });
  if (!res.ok) return null;
  return res.text();
}

async function loadOutput() {
  const id = selectedId;
  if (!id) return;
  let embedded = {};
  try {
    embedded = await getJSON(`${api}/steps/${encodeURIComponent(id)}/output`);
  } catch (e) {
    if (e.status !== 404) throw e;
  }
  const [out, err] = await Promise.all([logText("out", embedded.out_file), logText("err", embedded.err_file)]);
  if (id !== selectedId) return; // another step was chosen meanwhile
  show("out", out, embedded.out_content, embedded.out_truncated);
  show("err", err, embedded.err_content, embedded.err_truncated);
}

function show(stream, fileText, embedded, truncated) {
  const pre = document.getElementById(`step-${stream}`);
  const note = document.getElementById(`${stream}-note`);
  let text = fileText;
  let from = "";
  if (text == null) {
    text = embedded || "";
    from = truncated ? "(summary copy, truncated)" : "";
  }
  const n = nodes.get(selectedId);
  if (n && n.running && runLive) from = "(live)";
  document.getElementById(`${stream}-raw`).hidden = !text;
  // An empty stdout says so; an empty stderr is nothing to look at.
  note.textContent = !text && stream === "err" ? "(none)" : from;
  if (text === tail[stream]) return;
  const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  tail[stream] = text;
  const v = views[stream];
  if (!text) {
    v.reset();
    if (stream === "out") pre.textContent = "(empty)";
    pre.classList.add("empty");
    pre.hidden = stream === "err";
    return;
  }
  if (pre.classList.contains("empty")) v.reset(); // the placeholder goes
  pre.classList.remove("empty");
  pre.hidden = false;
  v.set(text);
  if (search.term) search.run(search.term);
  if (atEnd) pre.scrollTop = pre.scrollHeight;
  goToLine(false);
}

// goToLine marks the log line the address names (#out-L12) and, the
// first time it shows (or when asked), scrolls to it.
let wentTo = "";
function goToLine(force) {
  for (const l of document.querySelectorAll(".line.hl")) l.classList.remove("hl");
  const m = /^#((out|err|all)-L\d+)$/.exec(location.hash);
  const row = m && document.getElementById(m[1]);
  if (!row) return;
  row.classList.add("hl");
  if (force || wentTo !== location.hash) {
    wentTo = location.hash;
    row.scrollIntoView({ block: "center" });
  }
}

async function loadInbox() {
  const host = document.getElementById("inbox");
  let data;
  try {
    data = await getJSON(`${api}/inbox`);
  } catch (e) {
    if (e.status === 404) {
      host.replaceChildren(el("p", { class: "muted" }, "This run sent no messages."));
      return;
    }
    throw e;
  }
  const msgs = data.messages || [];
  if (msgs.length === 0) {
    host.replaceChildren(el("p", { class: "muted" }, "This run sent no messages."));
    return;
  }
  const rows = msgs.map((m) => el("tr", {},
    el("td", { class: "mono" }, m.seq),
    el("td", {}, m.channel),
    el("td", {}, m.sender),
    el("td", {}, m.state),
    el("td", { class: "mono small" }, m.preview),
    el("td", {}, el("ul", { class: "plain" }, ...(m.targets || []).map((d) => el("li", {},
      `${d.target}: ${d.state}`,
      d.attempts > 1 ? ` after ${d.attempts} attempts` : "",
      d.status != null ? ` (exit ${d.status})` : ""))))));
  host.replaceChildren(el("table", { class: "runs" },
    el("caption", {}, "Messages and their deliveries"),
    el("thead", {}, el("tr", {}, ...["#", "channel", "sender", "state", "payload", "deliveries"]
      .map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows)));
}

// The whole run's output, rendered as a step's is (lines #all-L<n>).
let allView = null;
async function loadAggregate() {
  const res = await fetch(`${api}/aggregate?stderr=1`, { cache: "no-store" });
  const pre = document.getElementById("aggregate");
  allView = allView || new LogView(pre, "all");
  const text = res.ok ? await res.text() : null;
  allView.reset(); // fetched when the tab opens, not tailed: drawn anew
  if (text == null) pre.textContent = `(HTTP ${res.status})`;
  else allView.set(text);
  if (tab === "all" && search.term) search.run(search.term);
  goToLine(false);
}

// remember puts the open step and tab in the address (keeping a line's
// #out-L12), so it can be shared.
function remember() {
  const p = new URLSearchParams(location.search);
  if (selectedId) p.set("step", selectedId); else p.delete("step");
  if (tab !== "step") p.set("tab", tab); else p.delete("tab");
  history.replaceState(null, "", `?${p}${location.hash}`);
}

function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

// loadFiles lists the files the workflow wrote into its run directory
// ($JAIPH_RUN_DIR/…, artifacts/), each a download; the tab counts them.
let lastFiles = "";
async function loadFiles() {
  const data = await getJSON(`${api}/files`);
  const key = JSON.stringify(data);
  if (key === lastFiles) return;
  lastFiles = key;
  const files = data.files || [];
  document.getElementById("tab-files").textContent = `Files (${files.length}${data.truncated ? "+" : ""})`;
  const host = document.getElementById("files");
  if (!files.length) {
    host.replaceChildren(el("p", { class: "muted" }, "The workflow wrote no files into its run directory."));
    return;
  }
  const href = (p) => `${api}/files/${p.split("/").map(encodeURIComponent).join("/")}`;
  host.replaceChildren(el("table", { class: "runs files" },
    el("caption", {}, "Files the workflow wrote into its run directory ($JAIPH_RUN_DIR)"),
    el("thead", {}, el("tr", {}, ...["file", "size", "modified"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...files.map((f) => el("tr", {},
      el("td", { class: "mono" }, el("a", { href: href(f.path), download: f.path.split("/").pop(), class: "file-link" }, f.path)),
      el("td", {}, fmtBytes(f.size)),
      el("td", {}, fmtTime(f.mtime)))))),
  data.truncated ? el("p", { class: "muted small" }, "Only the first files are listed.") : null);
}

function showTab(name) {
  tab = name;
  remember();
  for (const t of ["step", "inbox", "all", "files"]) {
    document.getElementById(`tab-${t}`).setAttribute("aria-selected", t === name ? "true" : "false");
    document.getElementById(`panel-${t}`).hidden = t !== name;
  }
  // The search box searches the output shown: the step's stdout and
  // stderr, or the whole run's.
  document.getElementById("log-search").hidden = name !== "step" && name !== "all";
  search.pres = name === "all" ? [document.getElementById("aggregate")] : [views.out.pre, views.err.pre];
  search.run(search.term);
  if (name === "inbox") loadInbox().catch(showError);
  if (name === "all") loadAggregate().catch(showError);
  if (name === "files") loadFiles().catch(showError);
}

// ↑/↓ move between steps, Home/End to the first and last.
function treeKeys(e) {
  if (!e.target.matches("button.step")) return;
  const all = [...document.querySelectorAll("button.step")];
  const i = all.indexOf(e.target);
  let j = null;
  if (e.key === "ArrowDown") j = Math.min(all.length - 1, i + 1);
  else if (e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = all.length - 1;
  if (j == null) return;
  e.preventDefault();
  all[j].focus();
}

// The tree follows the event stream; the open step's files are tailed
// every pollEvery ms while it runs, and once more after it ends (its last
// lines).
let tailedRunning = false;
async function tailTick() {
  const n = selectedId && nodes.get(selectedId);
  const running = !!(n && n.running && runLive);
  if (!document.hidden && (running || tailedRunning)) {
    try { await loadOutput(); } catch (e) { showError(e); }
  }
  tailedRunning = running;
  setTimeout(tailTick, pollEvery);
}

async function refresh() {
  await loadTree();
  if (tab === "inbox") await loadInbox();
}

function setup() {
  if (!runPath) {
    document.getElementById("run-title").textContent = "No run given";
    return;
  }
  document.getElementById("step-tree").addEventListener("keydown", treeKeys);
  for (const t of ["step", "inbox", "all", "files"]) {
    document.getElementById(`tab-${t}`).addEventListener("click", () => showTab(t));
  }
  const q = document.getElementById("log-q");
  q.addEventListener("input", () => search.run(q.value));
  q.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    search.move(e.shiftKey ? -1 : 1);
  });
  document.getElementById("log-search").addEventListener("submit", (e) => e.preventDefault());
  document.getElementById("log-next").addEventListener("click", () => search.move(1));
  document.getElementById("log-prev").addEventListener("click", () => search.move(-1));
  addEventListener("hashchange", () => goToLine(true));
  // A finished run changes only when resumed or redriven: polled slowly.
  if (["inbox", "all", "files"].includes(linkedTab)) showTab(linkedTab);
  live(refresh, (d) => [...(d.changed || []), ...(d.removed || [])].includes(runPath), () => runLive, BACKSTOP_MS);
  pollReady.then(tailTick);
}

setup();
