import { isNumericId, isValidSlug, newHexId, slugify } from './ids';

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

  it('takes as row ids the numbers within PostgreSQL bigint, and nothing else', () => {
    for (const id of ['0', '1', '123456789012345678', '9223372036854775807']) expect(isNumericId(id)).toBe(true);
    for (const id of ['', '-1', '+1', '1.0', ' 1', '1 ', '1e3', '0x10', '٣', '9223372036854775808', '12345678901234567890'])
      expect(isNumericId(id)).toBe(false);
  });
});
