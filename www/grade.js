// The one grader: whether an answer holds the expected one. Compare's list (`question =>
// expected`) and the benchmark (bench/tasks/check.mjs) both use it.
//
// An expectation has `any_of` (strings), `number` (with an optional absolute `tolerance`), or
// both. An answer passes when EITHER holds:
//   - any_of: some expected string occurs in the answer after both are normalised
//     (see normalize below); an expected string that starts/ends with a digit does
//     not match inside a longer number ("4" is not found in "42").
//   - number: some number written in the answer is within `tolerance` of `number`
//     (default: equal up to 1e-9 relative). Signs count: "-5" is not 5.
//
// Normalisation: Unicode NFKC (full-width digits, letters and punctuation become
// ASCII, e.g. "１２３，４５６" -> "123,456"; "H₂O" -> "H2O"), lower case, all dashes
// and the minus sign become "-", a hyphen between letters becomes a space
// ("retrieval-augmented" = "retrieval augmented"), runs of whitespace become one
// space, whitespace next to CJK characters is dropped ("3 月 14 日" = "3月14日"),
// and thousands separators are removed ("1,048,576", "1 048 576" with thin or
// narrow no-break spaces -> "1048576"). Limitation: a comma-separated list of
// three-digit numbers without spaces ("100,200") reads as one number.

const THIN_SPACES = /(\p{Nd})[\u2009\u202f](?=\p{Nd}{3}(?!\p{Nd}))/gu;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]/g;
const LETTER_HYPHEN = /(?<=\p{L})-(?=\p{L})/gu;
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f";
const SPACE_AFTER_CJK = new RegExp(`(?<=[${CJK}]) +`, "gu");
const SPACE_BEFORE_CJK = new RegExp(` +(?=[${CJK}])`, "gu");
const THOUSANDS = /(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d])/g;
// A number: digits with an optional fraction (or a bare fraction) and an optional
// exponent, with a minus sign unless that "-" follows a digit, an ASCII letter, "."
// or ")" (there it is a binary minus or a date/range separator: "2025-03-14").
const NUMBER = /(?:(?<![0-9a-z.)])-)?(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?/g;

/** Normalises text for comparison (used on answers and expected strings alike). */
export function normalize(text) {
  return String(text)
    .replace(THIN_SPACES, "$1")
    .normalize("NFKC")
    .toLowerCase()
    .replace(DASHES, "-")
    .replace(LETTER_HYPHEN, " ")
    .replace(/\s+/gu, " ")
    .replace(SPACE_AFTER_CJK, "")
    .replace(SPACE_BEFORE_CJK, "")
    .replace(THOUSANDS, (m) => m.replace(/,/g, ""))
    .trim();
}

/** Every number written in the text, in order (after normalisation). */
export function findNumbers(text) {
  const out = [];
  for (const m of normalize(text).matchAll(NUMBER)) {
    const value = Number(m[0]);
    if (Number.isFinite(value)) out.push(value);
  }
  return out;
}

function isDigit(ch) {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

function containsPhrase(haystack, needle) {
  if (needle === "") return false;
  const guardStart = isDigit(needle[0]);
  const guardEnd = isDigit(needle[needle.length - 1]);
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    const before = haystack[i - 1];
    const after = haystack[i + needle.length];
    // "3" must not match in "13" or "3.5"; "3." at a sentence end is fine.
    if (guardStart && (isDigit(before) || (before === "." && isDigit(haystack[i - 2])))) continue;
    if (guardEnd && (isDigit(after) || (after === "." && isDigit(haystack[i + needle.length + 1])))) continue;
    return true;
  }
  return false;
}

/**
 * Whether `answerText` answers `task` (`{ id, expect }`, e.g. an entry of tasks.json).
 * Throws a TypeError for a task whose `expect` has neither `any_of` nor `number`.
 */
export function checkAnswer(task, answerText) {
  const expect = task?.expect ?? {};
  const anyOf = Array.isArray(expect.any_of) ? expect.any_of : [];
  const hasNumber = typeof expect.number === "number" && Number.isFinite(expect.number);
  if (anyOf.length === 0 && !hasNumber) {
    throw new TypeError(`task ${task?.id}: expect needs any_of or number`);
  }
  if (typeof answerText !== "string" || answerText.trim() === "") return false;

  const answer = normalize(answerText);
  if (anyOf.some((s) => containsPhrase(answer, normalize(s)))) return true;

  if (hasNumber) {
    const target = expect.number;
    const tolerance =
      typeof expect.tolerance === "number" ? expect.tolerance : 1e-9 * Math.max(1, Math.abs(target));
    return findNumbers(answer).some((n) => Math.abs(n - target) <= tolerance);
  }
  return false;
}

/**
 * Whether `answer` holds `expected`, a person's text (Compare's `question => expected`): the
 * text itself, or when it is one number, that number written any way ("1,048,576", "１２",
 * "42.0"; "-5" is not 5).
 * null when nothing is expected.
 */
export function gradeText(answer, expected) {
  const text = String(expected ?? '').trim();
  if (!text) return null;
  const numbers = findNumbers(text);
  const alone = numbers.length === 1 && normalize(text).replace(/[^0-9.e+-]/g, '') === normalize(text);
  const expect = alone ? { number: numbers[0] } : { any_of: [text] };
  return checkAnswer({ id: 'compare', expect }, answer ?? '');
}
