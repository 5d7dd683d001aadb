import { isValidSlug, newHexId, slugify } from './ids';

describe('ids', () => {
  it('makes 32-hex ids', () => {
    expect(newHexId()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('slugifies names into valid slugs', () => {
    expect(slugify('My Great App!')).toBe('my-great-app');
    expect(slugify('2024')).toBe('2024-x');
    expect(isValidSlug(slugify('Ünïcode name'))).toBe(true);
  });

  it('rejects numeric-only and uppercase slugs', () => {
    expect(isValidSlug('123')).toBe(false);
    expect(isValidSlug('Acme')).toBe(false);
    expect(isValidSlug('acme-1')).toBe(true);
  });
});
