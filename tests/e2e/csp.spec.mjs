// The pages' Content-Security-Policy (README "Content-Security-Policy"): sent as a header by
// scripts/static-server.mjs and written in each page's <meta http-equiv>, for static hosts that
// send no headers. Under it the wasm still loads and runs, and injected inline script does not.
// (Every other spec runs under the same policy; a violation there is a console error, which
// fails the test.)
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { startStatic, CONTENT_SECURITY_POLICY } from '../../scripts/static-server.mjs';
import { LOCAL_SERVERS } from './fixtures.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

/** Injects an inline script; resolves to the directive that refused it, or 'ran'. */
const injectInlineScript = (page) => page.evaluate(() => new Promise((done) => {
  document.addEventListener('securitypolicyviolation', (e) => done(e.effectiveDirective), { once: true });
  const script = document.createElement('script');
  script.textContent = 'window.__inline = 1; document.dispatchEvent(new Event("inline-ran"));';
  document.addEventListener('inline-ran', () => done('ran'), { once: true });
  document.head.append(script);
}));

for (const [served, header] of [['with the header', true], ['by a host that sends no headers (meta tag only)', false]]) {
  test(`the pages run under their policy when served ${served}`, async ({ page }) => {
    const site = header ? { url: process.env.PAGE_URL } : await startStatic({ root: WWW, port: 0, csp: false });
    try {
      await page.route(LOCAL_SERVERS, (route) => route.abort('connectionrefused'));
      const refused = [];
      page.on('console', (m) => /Content Security Policy/.test(m.text()) && refused.push(m.text()));

      const response = await page.goto(`${site.url}?demo=1&question=${encodeURIComponent('What is 23 * 17 + 4?')}&autorun=1`);
      expect(response.headers()['content-security-policy'] ?? null).toBe(header ? CONTENT_SECURITY_POLICY : null);
      await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', CONTENT_SECURITY_POLICY);
      // The wasm compiled ('wasm-unsafe-eval') and the demo run reached its answer.
      await expect(page.getByTestId('final-answer')).toHaveText('The result is 395.');
      expect(await injectInlineScript(page)).toBe('script-src-elem');
      expect(await page.evaluate(() => window.__inline)).toBeUndefined();

      await page.goto(`${site.url}examples/`);
      await expect(page.locator('#origin')).toHaveText(new URL(site.url).origin); // example.js ran
      const first = page.locator('react-loop').first();
      await first.scrollIntoViewIfNeeded();
      await expect(first.getByTestId('final-answer')).toBeVisible({ timeout: 20_000 });
      // The element's styles (a constructed stylesheet) apply under style-src 'self'.
      expect(await first.locator('.frame').evaluate((e) => getComputedStyle(e).borderTopStyle)).toBe('solid');
      expect(await page.locator('body').evaluate((e) => getComputedStyle(e).marginTop)).toBe('0px'); // example.css
      expect(await injectInlineScript(page)).toBe('script-src-elem');
      // Only the injected scripts were refused (once per policy: header and meta), nothing of
      // the pages' own.
      expect(refused.filter((text) => !/inline script/.test(text))).toEqual([]);
      expect(refused).toHaveLength(header ? 4 : 2);
    } finally {
      if (!header) await site.close();
    }
  });
}
