// One MCP session with the official TypeScript SDK's client, as an
// application built on it would open one: cmd/jaiph's TestMCPClients runs
// it against `jaiph mcp` (stdio) and `jaiph serve` (Streamable HTTP).
//
//   node sdkclient.mjs PLAN
//
// PLAN is JSON: {"stdio": {"command": C, "args": [...], "cwd": D, "env": {...}}}
// or {"http": {"url": U, "token": T}}, and "calls": [{"name": N,
// "arguments": {...}, "gate": {"fifo": F, "after": M}}]. Every call asks
// for progress; a call with a gate writes a line to the FIFO F once a
// progress notification with the message M came in (the workflow waits for
// that line: the notifications up to M came during the call, not with its
// result, whatever the timing). It prints one JSON
// object: the negotiated protocol version, the server's name and
// capabilities, the tools as listed, and each call's result (or the
// error the SDK threw) with the progress notifications it received.
import { writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(process.argv[2]);
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
    entry.result = await client.callTool({ name: call.name, arguments: call.arguments }, undefined, {
      onprogress: (p) => {
        progress.push(p);
        if (call.gate && p.message === call.gate.after) {
          writeFile(call.gate.fifo, "open\n");
        }
      },
      timeout: 60000,
    });
  } catch (err) {
    entry.error = { code: err.code, message: err.message };
  }
  report.calls.push(entry);
}
await client.close();
process.stdout.write(JSON.stringify(report) + "\n");
