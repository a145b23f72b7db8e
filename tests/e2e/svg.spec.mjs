// A run as an animated SVG (issue 44): shown by an <img>, as GitHub shows one in a README, it
// plays the run step by step with CSS only, stays whole where motion is reduced, and holds no
// script, no handler and no link whatever the model wrote. The playground's Export SVG writes
// one of the run on screen, in the page's language.
import { readFile } from 'node:fs/promises';
import { test, expect, openPage, finalAnswer } from './fixtures.mjs';
import { traceToSvg } from '../../www/svg.js';
import { tenSteps, HOSTILE } from '../node/svg-trace.mjs';

/** Serves `svg` at http://svg.test/run.svg inside a page that shows it with <img>. */
async function showInImg(page, svg) {
  await page.route('http://svg.test/**', (route) => route.fulfill(route.request().url().endsWith('.svg')
    ? { contentType: 'image/svg+xml', body: svg }
    : { contentType: 'text/html', body: '<!doctype html><body style="margin:0"><img id="run" src="run.svg" alt="a run"></body>' }));
  await page.goto('http://svg.test/');
  await expect.poll(() => page.locator('#run').evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
}

/** What the browser's XML parser makes of `svg`: parse errors, elements, attributes, text. */
const parsed = (page, svg) => page.evaluate((text) => {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const all = [...doc.querySelectorAll('*')];
  return {
    errors: doc.querySelectorAll('parsererror').length,
    elements: [...new Set(all.map((e) => e.localName))].sort(),
    attributes: [...new Set(all.flatMap((e) => [...e.attributes].map((a) => a.name)))].sort(),
    text: doc.documentElement.textContent,
  };
}, svg);

for (const lang of ['en', 'zh']) {
  test(`an <img> of a run's SVG shows a different step at three moments, and all of it with reduced motion (${lang})`, async ({ page, browser }) => {
    const svg = traceToSvg(tenSteps(), { lang });
    expect(Buffer.byteLength(svg)).toBeLessThanOrEqual(60 * 1024);
    await page.setViewportSize({ width: 800, height: 1400 });
    await showInImg(page, svg);
    // Steps are revealed every 2.2 s from when the image loads.
    const shots = [];
    for (const at of [400, 2600, 4800]) {
      await page.waitForTimeout(at - (shots.length ? [400, 2600][shots.length - 1] : 0));
      shots.push(await page.screenshot({ path: `test-results/screenshots/svg-${lang}-${shots.length + 1}.png` }));
    }
    expect(shots[0].equals(shots[1])).toBe(false);
    expect(shots[1].equals(shots[2])).toBe(false);
    expect(shots[0].equals(shots[2])).toBe(false);

    // Chromium's emulated reduced motion does not reach the document of an <img>: the still
    // picture is checked with the SVG opened on its own.
    const still = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 800, height: 1400 } });
    const stillPage = await still.newPage();
    await showInImg(stillPage, svg);
    await stillPage.goto('http://svg.test/run.svg');
    const whole = await stillPage.screenshot({ path: `test-results/screenshots/svg-${lang}-reduced-motion.png` });
    await stillPage.waitForTimeout(2600);
    expect(whole.equals(await stillPage.screenshot())).toBe(true); // nothing moves
    const { errors, elements, attributes, text } = await parsed(stillPage, svg);
    await still.close();

    expect(errors).toBe(0);
    expect(elements).toEqual(['g', 'rect', 'style', 'svg', 'text', 'title', 'tspan']);
    expect(attributes.filter((a) => /^on|href/i.test(a))).toEqual([]);
    expect(text).toContain(HOSTILE.slice(0, 40)); // the model's markup, as text
  });
}

for (const [lang, question, label] of [['en', 'What is 23 * 17 + 4?', 'Thought'], ['zh', '计算 (2^10 - 24) / 8 的结果', '思考']]) {
  test(`Export SVG writes the run on screen as one SVG, in the page's language (${lang})`, async ({ page }) => {
    await openPage(page, { demo: '1', lang, question, autorun: '1' });
    await expect(finalAnswer(page)).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
    expect(download.suggestedFilename()).toBe('reactloop-run.svg');
    const svg = await readFile(await download.path(), 'utf8');
    // Parsed in a page of its own: the playground's CSP refuses the SVG's <style>.
    const blank = await page.context().newPage();
    const { errors, text } = await parsed(blank, svg);
    await blank.close();
    expect(errors).toBe(0);
    expect(text).toContain(question);
    expect(text).toContain(label);
    expect(text).toContain(await finalAnswer(page).textContent());
  });
}
