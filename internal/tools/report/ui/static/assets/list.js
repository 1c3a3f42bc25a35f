"use strict";
// The run list: /api/runs one page at a time (the server filters and pages,
// so thousands of runs cost one page), /api/active for the live strip.
// The status filter sends the API's words: a passed run is "completed".

const LIMIT = 50;
const state = { page: 1, status: "", q: "" };
let lastRuns = "";
let lastActive = "";
// listLive: a run shown here, or in the live strip, is running.
let listLive = false;
let activeLive = false;

// The filters live in the address, so reload and back keep them.
function readAddress() {
  const p = new URLSearchParams(location.search);
  state.page = Math.max(1, parseInt(p.get("page") || "1", 10) || 1);
  state.status = p.get("status") || "";
  state.q = p.get("q") || "";
  document.getElementById("f-status").value = state.status;
  document.getElementById("f-q").value = state.q;
}

function writeAddress() {
  const p = new URLSearchParams();
  if (state.page > 1) p.set("page", state.page);
  if (state.status) p.set("status", state.status);
  if (state.q) p.set("q", state.q);
  const qs = p.toString();
  history.replaceState(null, "", qs ? `?${qs}` : location.pathname);
}

function runHref(path) {
  return `/run.html?run=${encodeURIComponent(path)}`;
}

function runRow(r) {
  const note = runNote(r);
  const integ = integrityBadge(r);
  return el("tr", { class: `st-row-${r.status}` },
    el("td", {}, statusBadge(r.status), integ ? " " : null, integ,
      note ? el("span", { class: "note muted small" }, ` ${note}`) : null),
    el("td", {}, el("a", { href: runHref(r.path), class: "run-link" }, r.source || r.path)),
    el("td", { class: "mono small" }, r.path),
    el("td", {}, el("time", { datetime: r.started_at || "" }, fmtTime(r.started_at))),
    el("td", {}, runDuration(r)),
    el("td", {}, `${r.step_completed ?? 0}/${r.step_count ?? 0}`,
      r.step_open ? el("span", { class: "muted small" }, ` · ${r.step_open} stopped`) : null));
}

function runsQuery() {
  const p = new URLSearchParams({ page: state.page, limit: LIMIT });
  if (state.status) p.set("status", state.status);
  if (state.q) p.set("q", state.q);
  return p.toString();
}

async function loadRuns() {
  const asked = runsQuery();
  const data = await getJSON(`/api/runs?${asked}`);
  if (asked !== runsQuery()) return; // the filters changed meanwhile: a newer answer follows
  const pageCount = Math.max(1, Math.ceil((data.total || 0) / (data.page_size || LIMIT)));
  if (state.page > pageCount) { // runs were deleted under this page
    state.page = pageCount;
    writeAddress();
    return loadRuns();
  }
  const key = JSON.stringify([state, data]);
  const anyRunning = (data.runs || []).some((r) => r.status === "running");
  listLive = anyRunning;
  if (key === lastRuns && !anyRunning) return; // nothing changed: keep focus and selection
  lastRuns = key;
  const body = document.getElementById("runs-body");
  const rows = (data.runs || []).map(runRow);
  if (rows.length === 0) {
    rows.push(el("tr", {}, el("td", { colspan: 6, class: "muted" },
      state.status || state.q ? "No run matches the filter." : "No runs yet.")));
  }
  body.replaceChildren(...rows);
  const total = data.total || 0;
  const size = data.page_size || LIMIT;
  const pages = pageCount;
  const first = total === 0 ? 0 : (state.page - 1) * size + 1;
  const last = Math.min(total, state.page * size);
  document.getElementById("runs-meta").textContent =
    `${first}–${last} of ${total} run${total === 1 ? "" : "s"} · page ${state.page} of ${pages}`;
  document.getElementById("p-prev").disabled = state.page <= 1;
  document.getElementById("p-next").disabled = state.page >= pages;
}

async function loadActive() {
  const data = await getJSON("/api/active");
  const key = JSON.stringify(data);
  if (key === lastActive) return;
  lastActive = key;
  const runs = data.runs || [];
  activeLive = runs.length > 0;
  const list = document.getElementById("active-list");
  if (runs.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, "None"));
    return;
  }
  list.replaceChildren(...runs.map((r) => {
    const pct = r.percent != null ? `${r.percent}% · ` : "";
    const cur = r.current_step_label ? ` · ${r.current_step_label}` : "";
    return el("li", { class: "chip" },
      statusBadge("running"), " ",
      el("a", { href: runHref(r.path) }, r.source || r.path),
      ` ${pct}${r.step_completed}/${r.step_total} steps${cur}`);
  }));
}

function refresh() {
  writeAddress();
  loadRuns().then(() => showError(null), showError);
}

function setup() {
  readAddress();
  document.getElementById("filters").addEventListener("submit", (e) => e.preventDefault());
  document.getElementById("f-status").addEventListener("change", (e) => {
    state.status = e.target.value;
    state.page = 1;
    refresh();
  });
  let timer = null;
  document.getElementById("f-q").addEventListener("input", (e) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.q = e.target.value.trim();
      state.page = 1;
      refresh();
    }, 200);
  });
  document.getElementById("p-prev").addEventListener("click", () => {
    state.page = Math.max(1, state.page - 1);
    refresh();
  });
  document.getElementById("p-next").addEventListener("click", () => {
    state.page += 1;
    refresh();
  });
  // Any change can move this page (a new run, a status), so every event
  // refreshes it.
  live(() => Promise.all([loadRuns(), loadActive()]), () => true, () => listLive || activeLive);
}

setup();
