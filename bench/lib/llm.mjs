// scripts/local-llm from the bench: fresh servers on the bench's own ports, model paths and
// token counts.
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './wasm.mjs';

const SCRIPT = join(ROOT, 'scripts/local-llm');
export const CACHE = process.env.REACTLOOP_CACHE || join(homedir(), '.cache/reactloop');

// The bench uses its own ports so it never stops or reuses a server someone else started on
// the default ports (8080/8081) from the same cache.
export const MODELS = {
  qwen: { alias: 'qwen2.5-coder-0.5b-instruct', label: 'Qwen2.5-Coder-0.5B-Instruct Q4_K_M', port: 8180 },
  smollm: { alias: 'smollm2-135m-instruct', label: 'SmolLM2-135M-Instruct Q4_1', port: 8181 },
  // 1.1 GB, not in `scripts/local-llm install`: fetched by the first `start qwen15`; runs only
  // when named (--models qwen15).
  qwen15: { alias: 'qwen2.5-coder-1.5b-instruct', label: 'Qwen2.5-Coder-1.5B-Instruct Q4_K_M', port: 8182 },
};

// One llama.cpp thread unless REACTLOOP_THREADS says otherwise: with 2 threads on 2 busy cores
// the threads wait on each other and generation slows down 5-10x (measured here: 100 tokens in
// 7 s with 1 thread, 45-80 s with 2, while other jobs ran); with 1 it degrades gracefully.
export const THREADS = process.env.REACTLOOP_THREADS || '1';

function localLlm(args, { quiet = false } = {}) {
  const r = spawnSync(SCRIPT, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, REACTLOOP_THREADS: THREADS },
  });
  if (r.status !== 0) throw new Error(`scripts/local-llm ${args.join(' ')} failed (exit ${r.status})${quiet ? `: ${r.stderr}` : ''}`);
  return r.stdout.trim();
}

export function modelPath(name) {
  return localLlm(['path', name], { quiet: true });
}

/** Installs what is missing (quick when cached). */
export function install() {
  localLlm(['install']);
}

/** Stops whatever this cache runs on the model's port, then starts a fresh server. */
export function freshServer(name, port = MODELS[name].port) {
  localLlm(['stop', '--port', String(port)], { quiet: true });
  const url = localLlm(['start', name, '--port', String(port)]);
  return { url, alias: MODELS[name].alias, stop: () => stopServer(port) };
}

export function stopServer(port) {
  localLlm(['stop', '--port', String(port)], { quiet: true });
}

/**
 * Token counts of `texts` with the model's own tokenizer (llama.cpp's `/tokenize`, on a fresh
 * server of that model on `port`), or null when the model is not installed.
 */
export async function countTokens(name, texts, port = MODELS[name].port + 5) {
  try {
    modelPath(name);
  } catch {
    return null;
  }
  const server = freshServer(name, port);
  try {
    const counts = [];
    for (const content of texts) {
      const res = await fetch(`${server.url.replace(/\/v1$/, '')}/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content, add_special: false }),
      });
      if (!res.ok) throw new Error(`/tokenize answered ${res.status}: ${await res.text()}`);
      counts.push((await res.json()).tokens.length);
    }
    return counts;
  } finally {
    server.stop();
  }
}
