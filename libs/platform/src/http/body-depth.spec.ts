import { MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('nestsDeeperThan', () => {
  it('counts the body as level 1 and every object or array inside as one more', () => {
    expect(nestsDeeperThan({ a: [1, 'x'] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: null }] }, 2)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
    const wide = { wide: Array.from({ length: 1000 }, () => ({ x: [] })) };
    expect(nestsDeeperThan(wide, 4)).toBe(false);
    expect(nestsDeeperThan(wide, 3)).toBe(true);
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(1_000_000), MAX_BODY_DEPTH)).toBe(true);
    expect(nestsDeeperThan({ deep: { deeper: nested(1_000_000) } }, 2_000_000)).toBe(false);
  });
});
