/**
 * What an SDK may send that PostgreSQL cannot store: U+0000 (text and jsonb refuse it) and UTF-16
 * surrogates without their other half (UTF-8 cannot encode them; jsonb refuses their escapes).
 * Both become U+FFFD, the replacement character, as a decoder does with bytes it cannot read:
 * the event keeps its shape and length, and a reader sees where something was replaced.
 */
export const REPLACEMENT_CHARACTER = '\uFFFD';

// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const UNSTORABLE_CHARACTERS = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with NUL and lone surrogates replaced. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_CHARACTERS, REPLACEMENT_CHARACTER);
}

/**
 * Valid JSON decoded from UTF-8 holds these characters only as `\u` escapes, since a raw control
 * character is invalid JSON and a decoder never yields a surrogate. A text without such an escape
 * is storable as it is (an escaped backslash followed by `u0000` only costs the rewrite below).
 */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * Every escape of a JSON text, a surrogate pair's two escapes as one: the scan must see `\\` as one
 * escape so that the `u0000` after an escaped backslash is not read as an escape of its own.
 */
const JSON_ESCAPE = /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\[^u]/g;
const UNSTORABLE_ESCAPE_ALONE = /^\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})$/;

/**
 * Parses a JSON text with every string and object key, at any depth, made storable. The text is
 * rewritten only when it holds an escape of NUL or of a surrogate, so the usual payload costs a
 * scan for `\u` on top of its parse (0.3 µs against 15 µs for a 6 KB event).
 */
export function parseStorableJson(text: string): unknown {
  // `includes` first: a seventh of the regular expression's cost on the many texts with no `\u` at all.
  if (!text.includes('\\u') || !UNSTORABLE_ESCAPE.test(text)) return JSON.parse(text);
  return JSON.parse(text.replace(JSON_ESCAPE, (escape) => (UNSTORABLE_ESCAPE_ALONE.test(escape) ? '\\ufffd' : escape)));
}
