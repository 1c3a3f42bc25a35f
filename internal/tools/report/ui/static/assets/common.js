"use strict";
// Shared helpers of the list and run pages. The pages build DOM nodes with
// textContent only, never innerHTML, so run data cannot inject markup.

// el("a", {href: "/x", class: "y"}, "text", otherNode) builds an element.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

// Status words and symbols: the symbol and the word carry the meaning, the
// colour (class st-<name>) only repeats it. The reference calls a passed
// run "completed".
const STATUS = {
  passed: { sym: "✓", word: "passed" },
  completed: { sym: "✓", word: "passed" },
  failed: { sym: "✗", word: "failed" },
  running: { sym: "◷", word: "running" },
  interrupted: { sym: "■", word: "interrupted" },
  killed: { sym: "■", word: "killed" },
};

function statusBadge(status) {
  const s = STATUS[status] || { sym: "·", word: status || "unknown" };
  return el("span", { class: `badge st-${s.word}` },
    el("span", { "aria-hidden": "true" }, s.sym), " ", s.word);
}

// integrityBadge marks a run whose summary and journal do not verify
// (jaiph verify: tampered, or unverifiable without its key), with why
// ("unverifiable: no key"); null for a run that verifies, or whose
// verdict the server does not give.
function integrityBadge(r) {
  if (!integrityShown(r)) return null;
  const sym = r.integrity === "tampered" ? "⚠" : "?";
  const words = r.integrity_note || r.integrity;
  return el("span", { class: `badge integ-${r.integrity}`, title: words },
    el("span", { "aria-hidden": "true" }, sym), " ", words);
}

function integrityShown(r) {
  return r.integrity === "tampered" || r.integrity === "unverifiable";
}

// A step's status from its tree node: running, passed (exit 0), failed
// (other exit codes, named), or interrupted: the run was stopped in it
// (n.interrupted: a signal ended it, or it never ended because the run
// was killed; or it never ended and the run is over: runLive, set by
// the run page).
function stepStatus(n) {
  if (n.running && (typeof runLive === "undefined" || runLive)) return { key: "running", word: "running" };
  if (n.interrupted && n.status != null) return { key: "interrupted", word: `interrupted (exit ${n.status})` };
  if (n.interrupted) return { key: "interrupted", word: "never ended: the run was killed" };
  if (n.status === 0) return { key: "passed", word: "passed" };
  if (n.status != null) return { key: "failed", word: `failed (exit ${n.status})` };
  return { key: "interrupted", word: "no end" };
}

function pad(n) { return String(n).padStart(2, "0"); }

// fmtTime shows an RFC 3339 time in the browser's local time zone.
function fmtTime(ts) {
  if (!ts) return "—";
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function fmtMs(ms) {
  if (ms == null || Number.isNaN(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${pad(Math.floor(s % 60))} s`;
  return `${Math.floor(m / 60)} h ${pad(m % 60)} m`;
}

// duration of a run: the server's duration_ms when it tells (exact: the
// run's records, or its root step's elapsed time; a killed run's runs to
// its last event and is a lower bound, shown with ≥), else from its start
// to its end, or to now while it runs.
function runDuration(r) {
  if (r.status !== "running" && r.duration_ms != null) {
    return (r.end_unknown ? "≥ " : "") + fmtMs(r.duration_ms);
  }
  return duration(r.started_at, r.ended_at, r.status === "running");
}

// runNote is what the status alone does not say, as jaiph runs shows it,
// less the integrity verdict when its badge already says it.
function runNote(r) {
  const note = r.note || "";
  const integ = r.integrity_note;
  if (integ && integrityShown(r) && note.startsWith(integ)) return note.slice(integ.length).replace(/^, /, "");
  return note;
}

function duration(started, ended, running) {
  const a = Date.parse(started || "");
  const b = ended ? Date.parse(ended) : running ? Date.now() : NaN;
  if (Number.isNaN(a) || Number.isNaN(b)) return "—";
  return fmtMs(Math.max(0, b - a));
}

async function getJSON(url) {
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok) {
    const err = new Error(`${url}: HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return res.json();
}

function showError(err) {
  const p = document.getElementById("error");
  if (!p) return;
  p.hidden = !err;
  p.textContent = err ? `Cannot reach the report server (${err.message}); retrying.` : "";
}

// pollMs is how often the pages poll when the server's event stream is
// unavailable, and how often a running step's output is tailed: the
// server's --poll-ms when it tells (/api/config), else one second.
let pollEvery = 1000;
const pollReady = fetch("/api/config", { cache: "no-store" })
  .then((r) => (r.ok ? r.json() : null))
  .then((c) => { if (c && c.poll_ms > 0) pollEvery = Math.max(100, c.poll_ms); })
  .catch(() => {});

// While the event stream is up, a slow backstop poll still runs (it
// catches a missed event and moves running durations on).
const BACKSTOP_MS = 5000;

// stream is the server's event stream (/api/events) as the report's pages
// share it: one tab holds it under a Web Lock and passes its events on to
// the other tabs over a BroadcastChannel, so any number of tabs cost one
// connection (a browser allows six per host over HTTP/1.1: a seventh
// page's requests would wait forever). A page asks for it only while it
// shows something running (want); otherwise it polls, so a finished page
// settles: nothing stays pending on the network, and a screenshot tool
// that waits for that (chromium --headless --screenshot
// --virtual-time-budget) returns. It is let go on pagehide (the back/forward
// cache keeps a hidden page alive) and asked for again on pageshow.
// A page opens it only once someone uses it (a pointer, a key, the wheel,
// a touch): until then a live page polls, so a screenshot tool, which
// never does, sees a live page settle too.
// Without Web Locks (plain http on an address other than localhost) a page
// holds a stream of its own while it wants one.
const stream = (() => {
  const listeners = [];
  const bc = typeof BroadcastChannel === "function" ? new BroadcastChannel("jaiph-report-events") : null;
  const shared = !!(bc && navigator.locks);
  let es = null; // this page's EventSource
  let release = null; // lets the lock go
  let waiting = null; // aborts a lock request still waiting
  let wanted = false;
  let shown = true;
  let engaged = false; // someone used the page
  let heard = 0; // when the stream (here or in the holding tab) was last known up
  const deliver = (data) => { for (const f of listeners) f(data); };
  const open = () => {
    es = new EventSource("/api/events");
    es.onopen = () => { heard = Date.now(); };
    es.addEventListener("runs", (ev) => {
      let data = {};
      try { data = JSON.parse(ev.data); } catch (_) { /* a malformed event: refresh anyway */ }
      heard = Date.now();
      deliver(data);
      if (bc) bc.postMessage({ runs: data });
    });
  };
  const close = () => {
    if (es) { es.close(); es = null; }
    if (release) { release(); release = null; }
    if (waiting) { waiting.abort(); waiting = null; }
  };
  const sync = () => {
    if (!(wanted && shown && engaged)) { close(); return; }
    if (es || release || waiting) return; // held, or waiting for the tab that holds it
    if (!shared) { open(); return; }
    const ctl = new AbortController();
    waiting = ctl;
    navigator.locks.request("jaiph-report-events", { signal: ctl.signal }, () => new Promise((resolve) => {
      waiting = null;
      release = resolve;
      open();
    })).catch(() => { /* given up: the page no longer wants it */ });
  };
  if (bc) {
    bc.onmessage = (m) => {
      const d = m.data || {};
      heard = Date.now();
      if (d.runs) deliver(d.runs);
    };
  }
  // The holder tells the other tabs that the stream is up.
  setInterval(() => {
    if (es && es.readyState === 1) {
      heard = Date.now();
      if (bc) bc.postMessage({ up: true });
    }
  }, 1000);
  const engage = () => {
    if (engaged) return;
    engaged = true;
    sync();
  };
  for (const ev of ["pointerdown", "keydown", "wheel", "touchstart"]) {
    addEventListener(ev, engage, { capture: true, passive: true });
  }
  addEventListener("pagehide", () => { shown = false; sync(); });
  addEventListener("pageshow", () => { shown = true; sync(); });
  return {
    listen(f) { listeners.push(f); },
    want(w) { wanted = w; sync(); },
    up() { return Date.now() - heard < 2500; },
    holds() { return !!es; },
  };
})();

// live(fn, wants, isLive, idleMs) runs fn now, whenever the event stream
// announces a change wants(data) cares about, and on a timer: every
// BACKSTOP_MS while the stream is up, else every pollEvery ms while
// isLive() (the page shows something running) and every idleMs (default
// pollEvery) otherwise. Runs never overlap; a change during a run queues
// one more. Hidden tabs skip timers.
function live(fn, wants, isLive, idleMs) {
  let busy = false;
  let again = false;
  let last = 0;
  const run = async () => {
    if (busy) { again = true; return; }
    busy = true;
    last = Date.now();
    try { await fn(); showError(null); } catch (e) { showError(e); }
    busy = false;
    if (again) { again = false; run(); }
  };
  stream.listen((data) => { if (wants(data)) run(); });
  const tick = () => {
    const liveNow = isLive();
    stream.want(liveNow);
    const ms = stream.up() ? BACKSTOP_MS : liveNow ? pollEvery : (idleMs || pollEvery);
    if (!document.hidden && Date.now() - last >= ms) run();
    setTimeout(tick, 200);
  };
  pollReady.then(() => { run(); tick(); });
}
