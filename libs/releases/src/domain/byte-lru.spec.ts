import fc from 'fast-check';
import { ByteLru } from './byte-lru';

describe('ByteLru', () => {
  it('evicts the least recently used entries once the bytes exceed the bound', () => {
    const cache = new ByteLru<string>(10);
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.bytes).toBe(8);
  });

  it('keeps no entry heavier than the whole cache', () => {
    const cache = new ByteLru<string>(10);
    cache.set('big', 'x', 11);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('never holds more bytes than its bound, whatever is stored', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.nat(50))), (writes) => {
        const cache = new ByteLru<number>(100);
        for (const [key, bytes] of writes) cache.set(key, bytes, bytes);
        expect(cache.bytes).toBeLessThanOrEqual(100);
      }),
    );
  });
});
