// Starts the static server for www/ and a fresh scripts/local-llm qwen server for the suite;
// stops both afterwards. The model server must already be installed (scripts/local-llm
// install; scripts/test-llm does that).
//
// Environment: LLM_E2E_PORT (default 8280: not the usual 8080, so a server someone else
// started from the same cache is never stopped or reused), REACTLOOP_THREADS (default 1:
// two llama.cpp threads on two busy cores slow generation down 5-10x).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';

const script = fileURLToPath(new URL('../../scripts/local-llm', import.meta.url));

function localLlm(...args) {
  const r = spawnSync(script, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, REACTLOOP_THREADS: process.env.REACTLOOP_THREADS || '1' },
  });
  if (r.status !== 0) throw new Error(`scripts/local-llm ${args.join(' ')} failed with exit ${r.status}`);
  return r.stdout.trim();
}

export default async function globalSetup() {
  const port = process.env.LLM_E2E_PORT || '8280';
  // Fresh: whatever this cache runs on the port is stopped first.
  localLlm('stop', '--port', port);
  const url = localLlm('start', 'qwen', '--port', port);
  const models = await (await fetch(`${url}/models`)).json();
  const site = await startStatic({ root: fileURLToPath(new URL('../../www/', import.meta.url)), port: 0 });
  process.env.PAGE_URL = site.url;
  process.env.LLM_URL = url;
  process.env.LLM_MODEL = models.data[0].id;
  return async () => {
    await site.close();
    localLlm('stop', '--port', port);
  };
}
