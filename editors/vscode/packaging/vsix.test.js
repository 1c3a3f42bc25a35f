// jaiph.vsix as `npm run package` builds it (npm run test:package packages
// first): the files it holds, its manifest, and its bundle loaded alone.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { readZip } = require('./zip.js');
const { assertSelfContained } = require('./load-bundle.js');

const root = path.join(__dirname, '..');
const vsix = path.join(root, 'jaiph.vsix');

function entries() {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: npm run package builds it`);
  return readZip(fs.readFileSync(vsix));
}

test('the package holds the manifest, the bundle, the grammar and the language configuration only', () => {
  // No node_modules, sources, tests, source maps or build files.
  assert.deepStrictEqual([...entries().keys()].sort(), [
    '[Content_Types].xml',
    'extension.vsixmanifest',
    'extension/language-configuration.json',
    'extension/out/extension.js',
    'extension/package.json',
    'extension/syntaxes/jaiph.tmLanguage.json',
  ]);
});

test('the packaged package.json names its files, repository and licence', () => {
  const files = entries();
  const pkg = JSON.parse(files.get('extension/package.json').toString('utf8'));
  const inside = (p) => `extension/${path.posix.normalize(p)}`;
  assert.ok(files.has(inside(pkg.main)), `main ${pkg.main} is not in the package`);
  assert.deepStrictEqual(pkg.activationEvents, ['onLanguage:jaiph']);
  for (const l of pkg.contributes.languages) assert.ok(files.has(inside(l.configuration)), l.configuration);
  for (const g of pkg.contributes.grammars) assert.ok(files.has(inside(g.path)), g.path);
  assert.strictEqual(pkg.dependencies, undefined);
  assert.deepStrictEqual(pkg.repository, {
    type: 'git', url: 'https://github.com/jaiph-go/jaiph.git', directory: 'editors/vscode',
  });
  // The repository has no LICENSE: the package grants none either.
  assert.strictEqual(pkg.license, 'UNLICENSED');
  const manifest = files.get('extension.vsixmanifest').toString('utf8');
  assert.match(manifest, /github\.com\/jaiph-go\/jaiph/);
});

test('the packaged bundle needs nothing but vscode and Node', () => {
  const source = entries().get('extension/out/extension.js').toString('utf8');
  const r = assertSelfContained(source);
  assert.ok(r.requests.includes('child_process'), 'the bundle never starts a process: is the language client in it?');
  // The client starts `<jaiph.path> lsp` for jaiph documents, on file and
  // untitled buffers.
  assert.match(source, /args:\["lsp"\],transport:\w+\.TransportKind\.stdio/);
  assert.match(source, /documentSelector:\[\{scheme:"file",language:"jaiph"\},\{scheme:"untitled",language:"jaiph"\}\]/);
  assert.match(source, /new \w+\.LanguageClient\("jaiph","Jaiph",/);
  assert.match(source, /"jaiph\.restartServer"/);
});
