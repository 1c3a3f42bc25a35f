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
};

function statusBadge(status) {
  const s = STATUS[status] || { sym: "·", word: status || "unknown" };
  return el("span", { class: `badge st-${s.word}` },
    el("span", { "aria-hidden": "true" }, s.sym), " ", s.word);
}

// A step's status from its tree node: running, passed (exit 0), failed
// (other exit codes, named) or interrupted when it never ended (and the
// run is over: runLive, set by the run page).
function stepStatus(n) {
  if (n.running && (typeof runLive === "undefined" || runLive)) return { key: "running", word: "running" };
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

// duration of a run: to its end, or to now while it runs.
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

// live(fn, wants) runs fn now, whenever /api/events (Server-Sent Events)
// announces a change wants(data) cares about, and on a timer: every
// pollEvery ms without the stream, every BACKSTOP_MS with it. Runs never
// overlap; a change during a run queues one more. Hidden tabs skip timers.
function live(fn, wants) {
  let streamUp = false;
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
  if (window.EventSource) {
    const es = new EventSource("/api/events");
    es.onopen = () => { streamUp = true; };
    es.onerror = () => { streamUp = false; }; // the browser reconnects by itself
    es.addEventListener("runs", (ev) => {
      let data = {};
      try { data = JSON.parse(ev.data); } catch (_) { /* a malformed event: refresh anyway */ }
      if (wants(data)) run();
    });
  }
  const tick = () => {
    const ms = streamUp ? BACKSTOP_MS : pollEvery;
    if (!document.hidden && Date.now() - last >= ms) run();
    setTimeout(tick, 200);
  };
  pollReady.then(() => { run(); tick(); });
}
