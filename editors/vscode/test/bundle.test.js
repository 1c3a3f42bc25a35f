// out/extension.js, as `npm run compile` bundles it (npm test compiles
// first): one file holding the client and vscode-languageclient, loaded alone
// it asks for vscode and Node's own modules only.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { assertSelfContained } = require('../packaging/load-bundle.js');

const root = path.join(__dirname, '..');
const bundle = path.join(root, 'out', 'extension.js');

test('out/extension.js needs nothing but vscode and Node', () => {
  assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm run compile builds it`);
  const source = fs.readFileSync(bundle, 'utf8');
  const r = assertSelfContained(source);
  // The language client is inside, not beside it.
  assert.ok(r.requests.includes('child_process'), 'the bundle never starts a process: is the language client in it?');
  assert.match(source, /jaiph\.restartServer/);
});

test('package.json starts the bundle and keeps no runtime dependency', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.strictEqual(path.normalize(pkg.main), path.normalize('./out/extension.js'));
  assert.deepStrictEqual(pkg.activationEvents, ['onLanguage:jaiph']);
  // Everything the extension runs is in the bundle: vsce would otherwise
  // package node_modules.
  assert.strictEqual(pkg.dependencies, undefined);
});

test('a module the bundle does not contain is caught', () => {
  assert.throws(() => assertSelfContained('require("vscode-languageclient/node"); require("vscode");'),
    /must miss vscode and nothing else/);
  assert.throws(() => assertSelfContained('const n = "vscode"; require(n); exports.activate = () => {}; exports.deactivate = () => {};'),
    /computed name/);
});
