// The playground end to end with a real small model (Qwen2.5-Coder-0.5B through
// scripts/local-llm), in Debian's Chromium. Run with scripts/test-llm, which installs the
// model server first (under a minute on a cold cache). Not part of `npx playwright test`.
import { defineConfig } from '@playwright/test';
import { chromium } from './playwright.config.mjs';

export default defineConfig({
  testDir: 'tests/e2e-llm',
  globalSetup: './tests/e2e-llm/global-setup.mjs',
  // The two runs share one freshly started server, in a fixed order: a fresh llama.cpp server
  // fed the same requests at temperature 0 answers the same way every time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // A CPU-only model: a run of 2-3 steps takes 10-60 s on 2 cores.
  timeout: 240_000,
  expect: { timeout: 180_000 },
  reporter: [['list']],
  outputDir: 'test-results/playwright-llm',
  use: {
    ...chromium,
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
  },
});
