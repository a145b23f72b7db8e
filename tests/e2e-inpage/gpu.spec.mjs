// The in-page engine's choice of device. Headless Chromium here offers no GPU adapter unless
// told to use SwiftShader, its software one; this file's browser is: a software adapter (and
// one without shader-f16) is refused, and ?gpu=1 takes it anyway.
import { test, expect } from '../e2e/fixtures.mjs';
import { chromium } from '../../playwright.config.mjs';
import { open, loadSmollm, oneStep } from './page.mjs';

test.use({
  serviceWorkers: 'block',
  launchOptions: { ...chromium.launchOptions, args: [...chromium.launchOptions.args, '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] },
});

test('a refused GPU leaves the model on the CPU, said in both languages', async ({ page }) => {
  await open(page);
  await loadSmollm(page);
  await expect(page.getByTestId('inpage-status')).toContainText('On the CPU (google swiftshader is a software adapter, slower than the CPU).');
  await page.locator('#ui-lang').selectOption('zh');
  await expect(page.getByTestId('inpage-status')).toContainText('在 CPU 上运行（google swiftshader 是软件适配器，比 CPU 还慢）。');
});

test('?gpu=1 takes the software adapter: the model loads and answers on it, and the trace says so', async ({ page }) => {
  await open(page, process.env.PAGE_URL, { gpu: '1' });
  await loadSmollm(page);
  await expect(page.getByTestId('inpage-status')).toContainText('On the GPU: google swiftshader.');
  expect(await oneStep(page)).toContain('(in the page, GPU google swiftshader)');
});

test('a GPU that fails while the model loads hands it to the CPU once, said in both languages, and the run works', async ({ page }) => {
  // The failure is made here: the worker's load on the GPU throws, as a shader that does not
  // compile or a lost device does, and the CPU load is left as it is.
  await page.route('**/inpage-worker.js', async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    const at = 'await wllama.loadModel([file], {';
    if (!text.includes(at)) throw new Error('inpage-worker.js no longer loads with wllama.loadModel([file], {');
    await route.fulfill({ response, body: text.replace(at, `if (gpuLayers) throw new Error('Device lost (made by the test)'); ${at}`) });
  });
  await open(page, process.env.PAGE_URL, { gpu: '1' });
  await loadSmollm(page);
  await expect(page.getByTestId('inpage-status')).toContainText('The GPU (google swiftshader) failed while the model loaded, so it runs on the CPU: Device lost (made by the test)');
  // The CPU takes wllama's compat build (the faster one there), the GPU had the default one.
  expect(await oneStep(page)).toMatch(/\(in the page, CPU, \d+ thread\(s\), compat build\)/);
  await page.locator('#ui-lang').selectOption('zh');
  await expect(page.getByTestId('inpage-status')).toContainText('GPU（google swiftshader）在加载模型时出错，所以模型改在 CPU 上运行：Device lost (made by the test)');
});
