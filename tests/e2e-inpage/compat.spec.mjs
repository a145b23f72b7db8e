// wllama's compat build (32-bit memory, Asyncify), which the site serves itself
// (www/vendor/wllama/compat/): no CDN, offline as the rest. A browser without JSPI or
// Memory64 (Safari today) has only that one; headless Chromium has both features, so the
// first test takes JSPI from the engine's worker, as such browsers lack it. Where both
// builds run, the CPU takes the compat one (faster there) unless the link says compat=0.
import { test, expect } from '../e2e/fixtures.mjs';
import { open, loadSmollm, oneStep } from './page.mjs';

test.use({ serviceWorkers: 'block' });

test("a browser without JSPI runs the compat build from this site: said in both languages, named in the trace, and a step runs", async ({ page }) => {
  await page.route('**/inpage-worker.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `delete WebAssembly.Suspending;\n${await response.text()}` });
  });
  await open(page);
  await loadSmollm(page);
  const status = page.getByTestId('inpage-status');
  await expect(status).toContainText("wllama's compat build (32-bit memory, Asyncify), from this site: this browser lacks JSPI.");
  // The default build cannot start without JSPI: this step ran on the compat build.
  expect(await oneStep(page)).toMatch(/\(in the page, CPU, \d+ thread\(s\), compat build\)/);
  await page.locator('#ui-lang').selectOption('zh');
  await expect(status).toContainText('使用 wllama 的兼容版本（32 位内存、Asyncify，由本站提供）：这个浏览器缺少 JSPI。');
});

test('?compat=1 asks for the compat build where the default one runs, and says so; a run started in Chinese names its device in Chinese', async ({ page }) => {
  await open(page, process.env.PAGE_URL, { compat: '1' });
  await loadSmollm(page);
  await expect(page.getByTestId('inpage-status')).toContainText("wllama's compat build (32-bit memory, Asyncify), as the link asks (compat=1).");
  await page.locator('#ui-lang').selectOption('zh');
  expect(await oneStep(page, '模型：')).toMatch(/（页面内，CPU，\d+ 个线程，兼容版本）/);
});

test('on the CPU the page takes the compat build and says why, in both languages; ?compat=0 keeps the default build', async ({ page }) => {
  await open(page);
  await loadSmollm(page);
  const status = page.getByTestId('inpage-status');
  await expect(status).toContainText("wllama's compat build (32-bit memory, Asyncify): on the CPU it runs faster than the default build (compat=0 in the link asks for that one).");
  await page.locator('#ui-lang').selectOption('zh');
  await expect(status).toContainText('使用 wllama 的兼容版本（32 位内存、Asyncify）：在 CPU 上它比默认版本快（链接里加 compat=0 可改用默认版本）。');

  await open(page, process.env.PAGE_URL, { compat: '0' });
  await loadSmollm(page);
  await expect(status).not.toContainText('compat build');
  expect(await oneStep(page)).toMatch(/\(in the page, CPU, \d+ thread\(s\)\)/);
});
