// Answer checker for the benchmark tasks in tasks.json and heldout.json. A file is
// {"now_unix_ms", "now_iso", "tasks": [{"id", "lang": "en"|"zh",
// "category": "calc"|"docs"|"time"|"multi"|"none", "question", "expect"}]}; the
// bench fixes the clock that current_time reads to now_unix_ms (Friday
// 2025-03-14 12:00 UTC: the same date from UTC-11 to UTC+11). The grader is the
// core's (src/grade.rs, through www/pkg: run scripts/build first), the one Compare uses,
// so the bench and Compare judge an answer alike.
import { readFileSync } from 'node:fs';
import { initSync } from '../../www/pkg/reactloop.js';

initSync({ module: readFileSync(new URL('../../www/pkg/reactloop_bg.wasm', import.meta.url)) });

export { checkAnswer, findNumbers, normalizeText as normalize } from '../../www/pkg/reactloop.js';
