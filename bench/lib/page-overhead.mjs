// The loop on the real playground page in headless Chromium: a 200-step run against the
// instant server, rendering included. Skipped while www/ has no page.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './wasm.mjs';

export async function measureOverheadPage() {
  try {
    await access(join(ROOT, 'www/index.html'));
  } catch {
    return { skipped: 'Page row: TODO, www/index.html does not exist on this branch yet (the playground is not merged).' };
  }
  return { skipped: 'Page row: not implemented yet.' };
}
