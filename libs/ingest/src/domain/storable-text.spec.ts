import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { parseStorableJson, storableText } from './storable-text';

// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isStorable = (text: string) => !UNSTORABLE.test(text);

/** Every string and key of a parsed JSON value. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, entry]) => [key, ...texts(entry)]);
  return [];
}

/** The reference the parse is held to: every string and key through `storableText`. */
function storableCopy(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableCopy);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [storableText(key), storableCopy(entry)]));
  return value;
}

describe('storable text', () => {
  it('replaces NUL and lone surrogates with U+FFFD and keeps surrogate pairs', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('\ud800x\udc00')).toBe('\uFFFDx\uFFFD');
    expect(storableText('\udc00\ud83d\ude00\ud83d')).toBe('\uFFFD\ud83d\ude00\uFFFD');
    expect(storableText('plain ✓ 😀')).toBe('plain ✓ 😀');
  });

  it('parses escapes of NUL and lone surrogates, in strings and keys at any depth, as U+FFFD', () => {
    const text = String.raw`{"a\u0000":["x\u0000y",{"deep\uD800":{"\udc00":"\ud83d\ude00 \ud83d"}}],"ok":"\u00e9\n"}`;
    expect(parseStorableJson(text)).toEqual({ 'a\uFFFD': ['x\uFFFDy', { 'deep\uFFFD': { '\uFFFD': '😀 \uFFFD' } }], ok: 'é\n' });
  });

  it('leaves an escaped backslash followed by "u0000" as the text it is', () => {
    expect(parseStorableJson(String.raw`["\\u0000", "\\\u0000", "\\ud800"]`)).toEqual(['\\u0000', '\\\uFFFD', '\\ud800']);
  });

  it('answers what JSON.parse answers for storable texts, nested deeper than a recursive walk could go', () => {
    const deep = `${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`;
    let value = parseStorableJson(deep);
    for (let depth = 0; depth < 20_000; depth++) value = (value as unknown[])[0];
    expect(value).toBe('\uFFFD');
  });

  it('makes every string and key of any JSON an SDK can send storable, changing nothing else', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().chain((shape) => fc.tuple(fc.constant(shape), fc.array(fc.tuple(anyText, anyText), { maxLength: 5 }))),
        ([shape, pairs]) => {
          const payload = { shape, ...Object.fromEntries(pairs), list: pairs };
          const parsed = parseStorableJson(JSON.stringify(payload));
          expect(texts(parsed).every(isStorable)).toBe(true);
          expect(parsed).toEqual(storableCopy(JSON.parse(JSON.stringify(payload))));
        },
      ),
    );
  });
});
