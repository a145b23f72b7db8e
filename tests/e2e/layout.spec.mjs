// The main flows looked at, not only asserted: each is photographed at a laptop's 1366×768
// and a phone's 390×844, in English and Chinese (test-results/screenshots/layout-*.png, for
// review), and checked for what a person would notice at once: a page that scrolls sideways,
// a table column narrower than about ten characters, a short button label broken over lines,
// a label that is not beside its control.
import { test, expect, openPage, screenshot } from './fixtures.mjs';

const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };
const QUESTION = { en: 'What is 23 * 17 + 4?', zh: '计算 (2^10 - 24) / 8 的结果' };
const STRATEGIES = ['react', 'act', 'cot', 'plan', 'reflect'];

/** What a person would notice on the page as it is now; [] when nothing. */
function problems(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el) => `"${(el.textContent || el.id || el.outerHTML).trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > innerWidth + 1) {
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
    }
    for (const cell of document.querySelectorAll('table th, table td')) {
      if (!shown(cell)) continue;
      const ten = document.createElement('span');
      ten.textContent = '0000000000';
      ten.style.cssText = 'position: absolute; visibility: hidden; white-space: nowrap';
      cell.append(ten);
      const width = ten.getBoundingClientRect().width;
      ten.remove();
      const style = getComputedStyle(cell);
      const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (inner < width * 0.9) out.push(`a table column ${Math.round(inner)} px wide, under ten characters (${Math.round(width)} px): ${name(cell)}`);
    }
    for (const button of document.querySelectorAll('button')) {
      // A short button label broken over lines ("下/载") is squeezed.
      const words = button.textContent.trim();
      if (!shown(button) || !words || words.length > 12) continue;
      const range = document.createRange();
      range.selectNodeContents(button);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(`the button ${name(button)} breaks over ${lines.size} lines`);
    }
    for (const label of document.querySelectorAll('label')) {
      const control = label.control;
      if (!shown(label) || !control || !shown(control)) continue;
      const c = control.getBoundingClientRect();
      if (label.contains(control)) {
        // A control inside its label (a checkbox, a radio, a select): its words' first line
        // starts right after it (or ends right before it), on its line.
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT, (n) => (n.textContent.trim() && !control.contains(n) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP));
        const words = walker.nextNode();
        if (!words) continue;
        const range = document.createRange();
        range.selectNodeContents(words);
        const line = range.getClientRects()[0];
        const before = control.compareDocumentPosition(words) & Node.DOCUMENT_POSITION_PRECEDING;
        const gap = before ? c.left - line.right : line.left - c.right;
        const off = Math.abs((line.top + line.bottom) / 2 - (c.top + c.bottom) / 2);
        if (gap < 0 || gap > 24 || off > 12) out.push(`the words of ${name(label)} sit ${Math.round(gap)} px from, and ${Math.round(off)} px off the line of, its control`);
      } else {
        // A label for a control elsewhere: above it (with only the control's own help text
        // between them), or before it on its row.
        const l = label.getBoundingClientRect();
        const help = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).map((id) => document.getElementById(id))
          .filter((el) => el && shown(el) && label.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && control.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING);
        const bottom = Math.max(l.bottom, ...help.map((el) => el.getBoundingClientRect().bottom));
        const below = c.top - bottom >= -2 && c.top - bottom <= 24 && c.left < l.right && c.right > l.left;
        const beside = c.left - l.right >= -2 && c.left - l.right <= 48 && c.top < l.bottom && c.bottom > l.top;
        if (!below && !beside) out.push(`the label ${name(label)} is not beside its control #${control.id}`);
      }
    }
    return out;
  });
}

/** Photographs the page as `name` and fails on what a person would notice. */
async function look(page, name) {
  await screenshot(page, `layout-${name}`);
  expect(await problems(page), name).toEqual([]);
}

async function openPanel(page, id) {
  await page.locator(`#${id}`).evaluate((details) => { details.open = true; });
}

async function run(page) {
  await page.getByTestId('run').click();
  await expect(page.getByTestId('final-answer').first()).toBeVisible();
}

for (const [size, viewport] of Object.entries(SIZES)) {
  for (const lang of ['en', 'zh']) {
    test(`the main flows at ${size} size (${viewport.width}×${viewport.height}) in ${lang === 'en' ? 'English' : 'Chinese'}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await openPage(page, { demo: '1', lang });
      const at = (flow) => `${flow}-${size}-${lang}`;
      await look(page, at('start'));
      await page.getByTestId('question').fill(QUESTION[lang]);

      await openPanel(page, 'prompt-panel');
      for (const strategy of STRATEGIES) {
        await page.getByTestId('strategy').selectOption(strategy);
        await run(page);
        await look(page, at(`run-${strategy}`));
      }
      await page.getByTestId('strategy').selectOption('react');
      await run(page);

      // The debugger, paused before the first request.
      await page.getByTestId('step').click();
      await expect(page.locator('#debug-next')).toBeVisible();
      await look(page, at('debugger'));
      await page.locator('#stop').click();
      await run(page);

      // Fork from the first step: the editor, then both runs side by side.
      await page.locator('#trace').getByTestId('step-card').first().getByTestId('fork').click();
      await expect(page.getByTestId('fork-editor')).toBeVisible();
      await look(page, at('fork-editor'));
      await page.getByTestId('fork-run').click();
      await expect(page.getByTestId('compare-column')).toHaveCount(2);
      await expect(page.getByTestId('compare-column').first().getByTestId('final-answer')).toBeAttached();
      await look(page, at('fork'));

      // Compare: two configurations, two questions: the columns and the grid.
      await openPanel(page, 'compare-panel');
      for (const [n, strategy] of [[0, 'react'], [1, 'act']]) {
        const column = page.locator('.compare-config').nth(n);
        await column.getByTestId('compare-server').selectOption('demo');
        await column.getByTestId('compare-strategy').selectOption(strategy);
      }
      await page.getByTestId('compare-questions').fill(`${QUESTION.en} => 395\n${QUESTION.zh} => 125`);
      await page.getByTestId('compare').click();
      await expect(page.getByTestId('compare-count')).toHaveCount(2);
      await expect(page.locator('#compare-grid td', { hasText: '…' })).toHaveCount(0);
      await page.locator('#compare-grid').scrollIntoViewIfNeeded();
      await look(page, at('compare'));

      // The in-page engine's panel.
      await openPanel(page, 'connect-panel');
      await page.locator('#preset').selectOption('inpage');
      await expect(page.locator('#inpage-fields')).toBeVisible();
      await page.locator('#connect-panel').scrollIntoViewIfNeeded();
      await look(page, at('inpage'));
    });
  }
}
