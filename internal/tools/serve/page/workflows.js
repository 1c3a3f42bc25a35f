// Lists the served workflows (GET /v1/workflows) with a form each; a form
// starts a run (POST /v1/workflows/{name}/runs) and shows its object.
// Everything is text: nothing from the server becomes markup.
const list = document.getElementById("workflows");

async function load() {
  const res = await fetch("/v1/workflows", { credentials: "same-origin" });
  if (res.status === 401) { location.href = "/login?next=/workflows"; return; }
  const body = await res.json();
  list.replaceChildren();
  if (!res.ok) { list.append(el("p", { class: "error" }, body.error.message)); return; }
  if (body.workflows.length === 0) list.append(el("p", {}, "No exported workflows are served."));
  for (const wf of body.workflows) list.append(form(wf));
}

function form(wf) {
  const f = el("form", { class: "workflow" });
  f.append(el("h2", {}, wf.name), el("pre", { class: "description" }, wf.description));
  const fields = {};
  for (const name of wf.arguments) {
    const input = el("input", { name, type: "text" });
    if (name === "args") input.placeholder = "one argument per line";
    fields[name] = input;
    f.append(el("label", {}, name + " ", name === "args" ? el("textarea", { name }) : input));
  }
  const out = el("pre", { class: "result" });
  f.append(el("button", { type: "submit" }, "Start"), out);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const args = {};
    for (const name of wf.arguments) {
      const v = f.elements[name].value;
      if (v === "") continue;
      args[name] = name === "args" ? v.split("\n") : v;
    }
    out.textContent = "Starting…";
    const res = await fetch("/v1/workflows/" + encodeURIComponent(wf.name) + "/runs?wait=true", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(args),
    });
    const body = await res.json();
    out.textContent = res.ok ? body.status + "\n\n" + body.result_text : body.error.code + ": " + body.error.message;
  });
  return f;
}

load();
