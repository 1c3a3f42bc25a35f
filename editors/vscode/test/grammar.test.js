// Tokenizes every fixture (test/fixtures/*.jh) with the real TextMate engine
// VS Code uses (vscode-textmate + vscode-oniguruma) and compares a compact
// scope dump with test/golden/<fixture>.txt. JAIPH_UPDATE_GOLDEN=1 (npm run
// test:update) rewrites the golden files; review their diff before committing.
// source.shell is test/shell-stub.tmLanguage.json, so the goldens show the
// Jaiph scopes and stay put when VS Code's shell grammar changes.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.join(__dirname, '..');
const fixtures = path.join(__dirname, 'fixtures');
const goldens = path.join(__dirname, 'golden');
const update = process.env.JAIPH_UPDATE_GOLDEN === '1';

const jaiphGrammar = path.join(root, 'syntaxes', 'jaiph.tmLanguage.json');
const stubShell = path.join(__dirname, 'shell-stub.tmLanguage.json');

let wasmLoaded;
async function loadGrammar(shellGrammar = stubShell) {
  const grammarFiles = { 'source.jaiph': jaiphGrammar, 'source.shell': shellGrammar };
  if (!wasmLoaded) {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    wasmLoaded = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  }
  await wasmLoaded;
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      const file = grammarFiles[scopeName];
      if (!file) throw new Error(`the grammar includes an unknown scope ${scopeName}`);
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  return registry.loadGrammar('source.jaiph');
}

// One block per source line: the line, then one row per token that has a
// scope below the root (whitespace-only tokens in no scope but regions are
// left out). Scopes are listed outermost first with `.jaiph` dropped.
function dump(grammar, text) {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let stack = vsctm.INITIAL;
  const out = [];
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    out.push(`${String(i + 1).padStart(3)}| ${line}`);
    for (const t of r.tokens) {
      const s = line.slice(t.startIndex, t.endIndex);
      const scopes = t.scopes.slice(1).map((x) => x.replace(/\.jaiph$/, ''));
      if (scopes.length === 0) continue;
      if (s.trim() === '' && scopes.every((x) => x.startsWith('meta.'))) continue;
      out.push(`   | ${JSON.stringify(s)} ${scopes.join(' ')}`);
    }
  });
  return { text: out.join('\n') + '\n', stack };
}

function atTopLevel(grammar, stack) {
  return stack.equals(grammar.tokenizeLine('', vsctm.INITIAL).ruleStack);
}

// The end-of-file check above can fail: an unclosed body, string or block
// leaves a region open.
test('an unclosed region is detected', async () => {
  const grammar = await loadGrammar();
  assert.ok(atTopLevel(grammar, dump(grammar, 'workflow w {\n  echo\n}\n').stack));
  for (const text of ['workflow w {\n  echo\n', 'local x = "open\n', 'rule r {\n  cat <<EOF\n}\n']) {
    assert.ok(!atTopLevel(grammar, dump(grammar, text).stack), JSON.stringify(text));
  }
});

const names = fs.readdirSync(fixtures).filter((f) => /\.jp?h$/.test(f)).sort();

test('fixtures exist', () => {
  assert.ok(names.length >= 4, `only ${names.length} fixtures in ${fixtures}`);
});

for (const name of names) {
  test(`scopes of ${name}`, async () => {
    const grammar = await loadGrammar();
    const { text, stack } = dump(grammar, fs.readFileSync(path.join(fixtures, name), 'utf8'));
    // Every declaration, block and string of a fixture is closed by its end:
    // the state after the last line is the top level again.
    assert.ok(atTopLevel(grammar, stack), `${name}: a region is still open at the end of the file`);
    const golden = path.join(goldens, name.replace(/\.jp?h$/, '.txt'));
    if (update) {
      fs.writeFileSync(golden, text);
      return;
    }
    assert.ok(fs.existsSync(golden), `${golden} is missing: run npm run test:update`);
    assert.strictEqual(text, fs.readFileSync(golden, 'utf8'),
      `${name}: scopes differ from ${path.relative(root, golden)} (npm run test:update rewrites it)`);
  });
}

test('package.json points at the grammar and the language configuration', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lang = pkg.contributes.languages.find((l) => l.id === 'jaiph');
  assert.ok(lang, 'no jaiph language');
  for (const ext of ['.jh', '.jph', '.test.jh', '.test.jph']) assert.ok(lang.extensions.includes(ext), ext);
  JSON.parse(fs.readFileSync(path.join(root, lang.configuration), 'utf8'));
  const gr = pkg.contributes.grammars.find((g) => g.language === 'jaiph');
  assert.strictEqual(gr.scopeName, 'source.jaiph');
  assert.strictEqual(JSON.parse(fs.readFileSync(path.join(root, gr.path), 'utf8')).scopeName, 'source.jaiph');
  assert.strictEqual(pkg.contributes.configuration.properties['jaiph.path'].default, 'jaiph');
});

// VS Code's own shell grammar (microsoft/vscode extensions/shellscript, MIT,
// as packaged by the tm-grammars npm package, MIT, pinned in package.json)
// has multi-line rules of its own (function bodies, { } groups, case, loops).
// With it, every line must stay in the same top-level region (config, rule,
// function, workflow, test) and get the same Jaiph scopes as with the stub,
// and every file must end at the top level.
//
// The files are this package's own fixtures (test/fixtures, lib/ included),
// so the test needs nothing outside the package folder. JAIPH_REPO=<the
// jaiph-go checkout> adds the repository's valid sources (examples/,
// testdata/golden/valid_*, the conformance cases that are not error cases);
// `make editors` sets it. The folders are named, never guessed from where the
// package sits: a package built from a copy of this folder finds nothing
// there, and a JAIPH_REPO without them fails.
const realShell = require.resolve('tm-grammars/grammars/shellscript.json');
const repo = process.env.JAIPH_REPO || '';

function jhFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jhFiles(p);
    return /\.jp?h$/.test(e.name) ? [p] : [];
  });
}

// Per line: the outermost Jaiph region at its start ('' at top level), and
// the innermost Jaiph scope of each of its characters (shell scopes left
// out), run-length encoded: where the shell grammar splits tokens does not
// matter, which text is a Jaiph keyword, name, string or operator does.
function regions(grammar, text) {
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, stack);
    const region = r.tokens[0].scopes.find((x) => x.startsWith('meta.') && x.endsWith('.jaiph')) || '';
    const runs = [];
    for (const t of r.tokens) {
      const own = t.scopes.filter((x) => x.endsWith('.jaiph') && !x.startsWith('meta.') && x !== 'source.jaiph');
      const scope = own.length ? own[own.length - 1] : '-';
      const n = Math.max(0, Math.min(t.endIndex, line.length) - t.startIndex);
      if (n === 0) continue;
      if (runs.length && runs[runs.length - 1][0] === scope) runs[runs.length - 1][1] += n;
      else runs.push([scope, n]);
    }
    out.push(`${region} ${runs.map(([x, n]) => `${x}*${n}`).join(' ')}`);
    stack = r.ruleStack;
  }
  return { out, top: atTopLevel(grammar, stack) };
}

const ownCorpus = jhFiles(fixtures).sort();

// The repository's valid sources, one list per folder; each folder must hold
// some (a moved folder fails the test instead of shrinking it).
function repoCorpus(dir) {
  const sets = [
    ['examples', () => true],
    [path.join('testdata', 'golden'), (f) => !/[/\\]invalid_/.test(f)],
    [path.join('testdata', 'conformance', 'cases'), (f) => !/[/\\]\d+_err_/.test(f)],
  ];
  return sets.flatMap(([sub, keep]) => {
    const d = path.join(dir, sub);
    assert.ok(fs.existsSync(d), `JAIPH_REPO=${dir}: no ${sub} folder`);
    const files = jhFiles(d).filter(keep);
    assert.ok(files.length > 0, `JAIPH_REPO=${dir}: no valid .jh file under ${sub}`);
    return files;
  });
}

function sameScopesWithRealShell(stub, real, files, base) {
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const a = regions(stub, text);
    const b = regions(real, text);
    const rel = path.relative(base, file);
    assert.ok(a.top, `${rel}: a region is still open at the end (stub shell grammar)`);
    assert.ok(b.top, `${rel}: a region is still open at the end (VS Code's shell grammar)`);
    a.out.forEach((x, i) => assert.strictEqual(b.out[i], x, `${rel}:${i + 1}: Jaiph scopes with VS Code's shell grammar`));
  }
}

test('VS Code\'s shell grammar leaves every body and Jaiph form of the fixtures as the stub does', async () => {
  // The fixtures and their imported modules, not a subset of them.
  assert.ok(ownCorpus.length > names.length, `no fixture modules under ${path.join(fixtures, 'lib')}`);
  sameScopesWithRealShell(await loadGrammar(), await loadGrammar(realShell), ownCorpus, root);
});

if (repo) {
  test(`VS Code's shell grammar leaves every body and Jaiph form of ${repo} as the stub does`, async () => {
    sameScopesWithRealShell(await loadGrammar(), await loadGrammar(realShell), repoCorpus(repo), repo);
  });
}

// VS Code indents after a line matching increaseIndentPattern and outdents a
// line matching decreaseIndentPattern (both JavaScript regular expressions).
test('indentation rules', () => {
  const cfg = JSON.parse(fs.readFileSync(path.join(root, 'language-configuration.json'), 'utf8'));
  const inc = new RegExp(cfg.indentationRules.increaseIndentPattern);
  const dec = new RegExp(cfg.indentationRules.decreaseIndentPattern);
  const cases = [
    // [line, indents the next line, is outdented]
    ['workflow default {', true, false],
    ['config {', true, false],
    ['  status = ensure ready recover {', true, false],
    ['  runtime.workspace = [', true, false],
    ['  if ! ensure tests_pass; then', true, false],
    ['  for f in *.txt; do', true, false],
    ['  else', true, true],
    ['  mock prompt {', true, false],
    ['  helper() { # a comment', true, false],
    ['}', false, true],
    ['  ]', false, true],
    ['  fi', false, true],
    ['  done', false, true],
    ['  run fix_tests', false, false],
    ['  echo "{"', false, false],
    ['  # a comment {', false, false],
    ['  finish', false, false],
    ['  done_marker=1', false, false],
  ];
  for (const [line, indents, outdents] of cases) {
    assert.strictEqual(inc.test(line), indents, `increaseIndentPattern on ${JSON.stringify(line)}`);
    assert.strictEqual(dec.test(line), outdents, `decreaseIndentPattern on ${JSON.stringify(line)}`);
  }
});
