// Lists the runs that wait in a receive (GET /v1/runs, their "waiting"),
// each with a form that answers it (POST /v1/runs/{id}/channels/{channel}
// with the key it waits for). Everything is text: nothing from the server
// becomes markup, and the answer travels as data.
const list = document.getElementById("waiting");

async function load() {
  const res = await fetch("/v1/runs?limit=1000", { credentials: "same-origin" });
  if (res.status === 401) { location.href = "/login?next=/waiting"; return; }
  const body = await res.json();
  list.replaceChildren();
  if (!res.ok) { list.append(el("p", { class: "error" }, body.error.message)); return; }
  const waiting = body.runs.filter((r) => r.waiting && (r.status === "running" || r.status === "queued"));
  if (waiting.length === 0) list.append(el("p", {}, "No run waits for a message."));
  for (const run of waiting) list.append(form(run));
}

function form(run) {
  const w = run.waiting;
  const f = el("form", { class: "waiting", "data-run": run.run_id });
  let what = run.workflow + " waits on " + w.channel;
  if (w.key) what += " (key " + w.key + ")";
  what += " since " + new Date(w.since).toLocaleString();
  if (w.timeout_at) what += ", until " + new Date(w.timeout_at).toLocaleString();
  f.append(el("h2", {}, run.run_id), el("p", { class: "description" }, what));
  const payload = el("textarea", { name: "payload" });
  const out = el("pre", { class: "result" });
  f.append(el("label", {}, "message ", payload), el("button", { type: "submit" }, "Send"), out);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    out.textContent = "Sending…";
    const res = await fetch("/v1/runs/" + encodeURIComponent(run.run_id) + "/channels/" + encodeURIComponent(w.channel), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ payload: payload.value, key: w.key || "" }),
    });
    const body = await res.json();
    out.textContent = res.ok ? "sent" : body.error.code + ": " + body.error.message;
  });
  return f;
}

load();
