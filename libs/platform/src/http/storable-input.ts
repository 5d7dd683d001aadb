/** The answer to a request carrying text PostgreSQL cannot store, wherever it was found. */
export const UNSTORABLE_TEXT_DETAIL = 'The request contains a character that cannot be stored (U+0000 or a lone surrogate).';

/** U+0000, or half of a surrogate pair without its other half: text PostgreSQL cannot store. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether a parsed request body holds, in any string or key at any depth, text PostgreSQL cannot
 * store. Walked without recursion, so no nesting the parser accepted can overflow the stack.
 */
export function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNSTORABLE.test(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (UNSTORABLE.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
