import { DomainError } from '@faultline/kernel';
import { FALLBACK_SHORT_ID_PREFIX, isShortId, parseShortId, shortIdFor, shortIdPrefix } from './short-id';

describe('shortIdFor', () => {
  it.each([
    ['web', 1, 'WEB-1'],
    ['web', 3, 'WEB-3'],
    ['backend-api', 42, 'BACKEND-API-42'],
    ['my_app', 7, 'MYAPP-7'],
    ['web2', 10, 'WEB2-10'],
    ['-edge-', 5, 'EDGE-5'],
    ['web', 1234567, 'WEB-1234567'],
  ])('%s #%d is %s', (slug, counter, expected) => {
    expect(shortIdFor(slug, counter)).toBe(expected);
  });

  it('keeps only A-Z, 0-9 and dashes', () => {
    expect(shortIdPrefix('Ünïcode.app 1')).toBe('NCODEAPP1');
  });

  it('falls back to a fixed prefix when nothing of the slug survives', () => {
    expect(shortIdFor('___', 2)).toBe(`${FALLBACK_SHORT_ID_PREFIX}-2`);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects the counter %p', (counter) => {
    expect(() => shortIdFor('web', counter)).toThrow(DomainError);
  });
});

describe('parseShortId', () => {
  it('splits at the last dash, in any case', () => {
    expect(parseShortId('backend-api-42')).toEqual({ prefix: 'BACKEND-API', counter: 42 });
    expect(parseShortId('WEB-3')).toEqual({ prefix: 'WEB', counter: 3 });
  });

  it('round-trips shortIdFor', () => {
    expect(parseShortId(shortIdFor('my-web', 99))).toEqual({ prefix: 'MY-WEB', counter: 99 });
  });

  it.each(['WEB', 'WEB-', '-3', 'WEB-0', 'WEB-03', 'WEB-A', 'WE B-3', 'WEB--3'])('rejects %p', (value) => {
    expect(parseShortId(value)).toBeNull();
    expect(isShortId(value)).toBe(false);
  });
});
