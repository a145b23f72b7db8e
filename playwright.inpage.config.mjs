// The in-page engine end to end (tests/e2e-inpage): llama.cpp in wasm in Debian's Chromium,
// with SmolLM2-135M from scripts/local-llm's cache. Run with scripts/test-inpage, which installs
// the models first. Not part of `npx playwright test` (that suite needs no model).
import { defineConfig } from '@playwright/test';
import { chromium } from './playwright.config.mjs';

export default defineConfig({
  testDir: 'tests/e2e-inpage',
  globalSetup: './tests/e2e-inpage/global-setup.mjs',
  // One at a time: each test runs llama.cpp on the machine's cores.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // A CPU-only model in wasm on 2 cores: a step takes 5-60 s, and a run of three steps up to
  // four minutes on a slow CPU (3-4 tokens/s; 3.7 min in `bash .ci/run` at 30fce80). Hang
  // guards, not timing goals.
  timeout: 720_000,
  expect: { timeout: 480_000 },
  reporter: [['list']],
  outputDir: 'test-results/playwright-inpage',
  use: {
    ...chromium,
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
  },
});
