// One MCP session with the official TypeScript SDK's client, as an
// application built on it would open one: cmd/jaiph's TestMCPTypeScriptSDK runs
// it against `jaiph mcp` (stdio) and `jaiph serve` (Streamable HTTP).
//
//   node sdkclient.mjs PLAN_FILE
//
// The plan is JSON: {"stdio": {"command": C, "args": [...], "cwd": D, "env": {...}}}
// or {"http": {"url": U, "token": T}}, "calls": [{"name": N, "arguments":
// {...}, "gate": {"fifo": F, "after": M}, "abortAfter": M}] and "hold".
// Every call asks for progress; a call with a gate writes a line to the
// FIFO F once a progress notification with the message M came in (the
// workflow waits for that line: the notifications up to M came during the
// call, not with its result, whatever the timing); a call with abortAfter
// is aborted (its AbortSignal) once the notification M came in. It prints
// one JSON line: the negotiated protocol version, the server's name and
// capabilities, the tools as listed, and each call's result (or the error
// the SDK threw) with the progress notifications it received. With hold it
// keeps the session open until its stdin ends.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
let transport;
if (plan.stdio) {
  transport = new StdioClientTransport({ ...plan.stdio, stderr: "inherit" });
} else {
  transport = new StreamableHTTPClientTransport(new URL(plan.http.url), {
    requestInit: { headers: { Authorization: `Bearer ${plan.http.token}` } },
  });
}
// The version the client settled on with the server's initialize result.
let negotiated = null;
const setVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (v) => {
  negotiated = v;
  setVersion?.(v);
};

const client = new Client({ name: "jaiph-sdk-test", version: "1.0.0" });
await client.connect(transport);
const report = {
  protocolVersion: negotiated,
  serverInfo: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  tools: (await client.listTools()).tools,
  calls: [],
};
for (const call of plan.calls ?? []) {
  const progress = [];
  const entry = { name: call.name, progress };
  try {
    const abort = new AbortController();
    entry.result = await client.callTool({ name: call.name, arguments: call.arguments }, undefined, {
      onprogress: (p) => {
        progress.push(p);
        if (call.gate && p.message === call.gate.after) {
          writeFile(call.gate.fifo, "open\n");
        }
        if (p.message === call.abortAfter) {
          abort.abort("the test cancels the call");
        }
      },
      signal: abort.signal,
      timeout: 60000,
    });
  } catch (err) {
    entry.error = { code: err.code, message: err.message };
  }
  report.calls.push(entry);
}
process.stdout.write(JSON.stringify(report) + "\n");
if (plan.hold) {
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on("end", resolve));
}
await client.close();
