import { isHexId, isNumericId, isValidSlug, newHexId, normalizeEventId, normalizeNonNilEventId, slugify } from './ids';

describe('ids', () => {
  it('makes 32-hex ids', () => {
    expect(newHexId()).toMatch(/^[0-9a-f]{32}$/);
    expect(isHexId(newHexId())).toBe(true);
    expect(isHexId('A'.repeat(32))).toBe(false);
    expect(isHexId('a'.repeat(31))).toBe(false);
  });

  it('reads event ids as Relay does: 32 hex digits or a dashed uuid, lower-cased', () => {
    expect(normalizeEventId('9EC79C33EC9942AB8353589FCB2E04DC')).toBe('9ec79c33ec9942ab8353589fcb2e04dc');
    expect(normalizeEventId('9ec79c33-ec99-42ab-8353-589fcb2e04dc')).toBe('9ec79c33ec9942ab8353589fcb2e04dc');
    for (const bad of [
      '9ec79c33ec9942ab8353589fcb2e04d',
      '9ec79c33ec9942ab8353589fcb2e04dcc',
      'g'.repeat(32),
      '9ec79c33ec99-42ab8353589fcb2e04dc',
      'not-an-id',
      '',
      12,
      null,
      undefined,
    ]) {
      expect(normalizeEventId(bad)).toBeUndefined();
    }
  });

  it('takes the nil event id for one, unless asked for an id an event may be stored under', () => {
    expect(normalizeEventId('0'.repeat(32))).toBe('0'.repeat(32));
    expect(normalizeEventId('00000000-0000-0000-0000-000000000000')).toBe('0'.repeat(32));
    expect(normalizeNonNilEventId('0'.repeat(32))).toBeUndefined();
    expect(normalizeNonNilEventId('00000000-0000-0000-0000-000000000000')).toBeUndefined();
    expect(normalizeNonNilEventId('A'.repeat(32))).toBe('a'.repeat(32));
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
