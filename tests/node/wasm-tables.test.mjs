// The standard library's tables that the core does without (issue 45: the wasm's size). Each
// comes back with one call of the std function its replacement stands for; the bytes below are
// each table's first entries, as a wasm32 build of that call holds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const wasm = readFileSync(new URL('../../www/pkg/reactloop_bg.wasm', import.meta.url));

const tables = [
  // dec2flt's POWER_OF_FIVE_128 (10 KB), from `str::parse::<f64>`: use crate::numbers::parse_f64.
  ['the powers of five of str::parse::<f64>', '5ad63b92d653f4ee3f3ba10629aa3f11'],
  // unicode's LOWERCASE_TABLE (11 KB), from `to_lowercase`: use crate::lower.
  ["the lowercase pairs of str::to_lowercase", 'c0000000e0000000c1000000e1000000'],
  // Grisu's cached powers of ten, from std's float formatting (`{}` or `{:.1}` of an f64): use
  // crate::numbers::shown or tenths, which go through serde_json's writer.
  ["std's float formatting (Grisu's powers of ten)", 'df451a3d03cf1ae6c1fbccfe00000000'],
  // libm's bits of 2/π (rem_pio2_large), from f64::sin, cos or tan: use crate::math.
  ["libm's bits of 2/π of f64::sin", '83f9a200444e6e00fc291500d1572700'],
];

for (const [what, hex] of tables) {
  test(`the wasm carries no copy of ${what}`, () => {
    assert.equal(wasm.indexOf(Buffer.from(hex, 'hex')), -1);
  });
}
