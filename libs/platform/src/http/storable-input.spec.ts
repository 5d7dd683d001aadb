import fc from 'fast-check';
import { holdsUnstorableText } from './storable-input';

describe('holdsUnstorableText', () => {
  it.each([
    ['a NUL in a value', { name: 'a\u0000b' }],
    ['a lone high surrogate', { name: 'x\ud800' }],
    ['a lone low surrogate in a list', { scopes: ['ok', '\udfffy'] }],
    ['a NUL in a key', { ['k\u0000']: 1 }],
    ['deep inside', JSON.parse(`${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`)],
  ])('finds %s', (_, body) => {
    expect(holdsUnstorableText(body)).toBe(true);
  });

  it('passes text PostgreSQL stores: pairs, emoji, combining marks', () => {
    expect(holdsUnstorableText({ name: 'café 💥 e\u0301', list: [1, null, true, { deep: '\ud83d\udcbe' }] })).toBe(false);
  });

  it('agrees with what UTF-8 can encode and back, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }), (text) => {
        const storable = !text.includes('\u0000') && Buffer.from(text, 'utf8').toString('utf8') === text;
        expect(holdsUnstorableText({ text })).toBe(!storable);
      }),
    );
  });
});
