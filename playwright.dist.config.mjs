// The release as its users meet it (tests/e2e-dist): dist/site on a plain static host under a
// subpath, the element from that host on a docs page of another origin, the downloaded site
// under python3 -m http.server, and the npm package installed into an empty folder. Run by
// scripts/test after scripts/dist; not part of `npx playwright test`.
import { defineConfig } from '@playwright/test';
import { chromium } from './playwright.config.mjs';

export default defineConfig({
  testDir: 'tests/e2e-dist',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 2,
  reporter: [['list']],
  outputDir: 'test-results/playwright-dist',
  use: {
    ...chromium,
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
  },
});
