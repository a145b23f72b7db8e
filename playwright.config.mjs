// Browser tests of the playground (tests/e2e) in Debian's Chromium; no browser download.
// The static server (www/) and the mock model server start in-process in global-setup.
import { defineConfig } from '@playwright/test';

/** Debian's Chromium, headless and quiet; the real-model config uses it too. */
export const chromium = {
  browserName: 'chromium',
  launchOptions: {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
};

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.mjs',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  workers: 2,
  reporter: [['list']],
  outputDir: 'test-results/playwright',
  use: {
    ...chromium,
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    // The suite's host sends no isolation headers, so choosing the in-page engine would register
    // the site's service worker and reload (tests/e2e-dist and tests/e2e-inpage test that), and
    // page.route() does not see what a service worker fetches.
    serviceWorkers: 'block',
  },
});
