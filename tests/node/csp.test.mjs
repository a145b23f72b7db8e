// The pages' Content-Security-Policy is written in a <meta http-equiv> too (for static hosts
// that send no headers): it must be the one scripts/static-server.mjs sends, and the pages must
// need nothing it forbids (no inline script, style or event handler).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CONTENT_SECURITY_POLICY } from '../../scripts/static-server.mjs';

test("the pages carry the server's policy in a meta tag and have no inline script", async () => {
  const www = new URL('../../www/', import.meta.url);
  for (const page of ['index.html', 'examples/index.html']) {
    const html = await readFile(new URL(page, www), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta, `${page}: no CSP meta tag`);
    assert.equal(meta[1], CONTENT_SECURITY_POLICY, page);
    for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
      assert.match(tag, /\bsrc=|type="application\/json"/, `${page}: inline ${tag}`);
    }
    assert.doesNotMatch(html, /<style\b|\son[a-z]+=/i, `${page}: inline style or handler`);
  }
});
