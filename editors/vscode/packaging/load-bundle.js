// Loads an extension bundle the way VS Code would find its modules, minus
// VS Code: the file is copied alone into a fresh temporary folder (no
// node_modules beside it or above it, NODE_PATH empty) and required by a
// child node. A bundle that still needs a package from node_modules fails
// there. Two loads:
//  - plain: the only module it may fail to find is `vscode`;
//  - with `vscode` answered by a placeholder that has no behaviour (every
//    member, call and `new` gives another placeholder), so the whole module
//    graph initializes: which modules it asked for, and what it exports.
'use strict';
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const child = String.raw`
const Module = require('module');
const file = process.argv[1];
const out = {};
try {
  require(file);
  out.plain = null;
} catch (e) {
  out.plain = { code: e.code, message: String(e.message).split('\n')[0] };
}
delete require.cache[file];
function nothing() {
  return new Proxy(function () {}, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => 0 : k === 'prototype' ? t.prototype : nothing()),
    apply: () => nothing(),
    construct: () => nothing(),
  });
}
const vscode = nothing();
const requests = new Set();
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (parent && parent.filename === file) {
    requests.add(request);
    if (request === 'vscode') return vscode;
  }
  return load.apply(this, arguments);
};
try {
  const m = require(file);
  out.exports = Object.fromEntries(Object.keys(m).map((k) => [k, typeof m[k]]));
} catch (e) {
  out.error = String(e.message).split('\n')[0];
}
out.requests = [...requests].sort();
process.stdout.write(JSON.stringify(out));
`;

function noNodeModulesAbove(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    assert.ok(!fs.existsSync(path.join(d, 'node_modules')), `${d}/node_modules exists: the isolation would leak`);
    if (path.dirname(d) === d) return;
  }
}

function loadIsolated(source, name = 'extension.js') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jaiph-bundle-'));
  try {
    noNodeModulesAbove(dir);
    const file = path.join(dir, name);
    fs.writeFileSync(file, source);
    const env = { ...process.env, NODE_PATH: '' };
    return JSON.parse(execFileSync(process.execPath, ['-e', child, file], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The checks both the built bundle and the packaged one must pass.
function assertSelfContained(source) {
  const r = loadIsolated(source);
  assert.deepStrictEqual(r.plain, { code: 'MODULE_NOT_FOUND', message: "Cannot find module 'vscode'" },
    'loaded alone, the bundle must miss vscode and nothing else');
  assert.strictEqual(r.error, undefined, 'with vscode given, the bundle does not load');
  const builtin = new Set(require('node:module').builtinModules);
  const foreign = r.requests.filter((m) => m !== 'vscode' && !builtin.has(m.replace(/^node:/, '')));
  assert.deepStrictEqual(foreign, [], 'the bundle requires packages it does not contain');
  assert.ok(r.requests.includes('vscode'), `the bundle never asks for vscode: ${r.requests.join(', ')}`);
  assert.strictEqual(r.exports.activate, 'function');
  assert.strictEqual(r.exports.deactivate, 'function');
  // Every require in the text names a module: none is computed at run time,
  // so the load above saw every module the bundle can ask for.
  const calls = source.match(/\brequire\s*\(/g) || [];
  const literal = source.match(/\brequire\s*\(\s*"[^"]+"\s*\)/g) || [];
  assert.strictEqual(calls.length, literal.length, 'a require call with a computed name');
  return r;
}

module.exports = { loadIsolated, assertSelfContained };
