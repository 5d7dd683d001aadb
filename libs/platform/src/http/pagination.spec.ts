import { BadRequestException } from '@nestjs/common';
import { linkHeader, parsePageRequest } from './pagination';

function capture(fn: () => unknown): BadRequestException {
  try {
    fn();
  } catch (error) {
    if (error instanceof BadRequestException) return error;
  }
  throw new Error('expected a BadRequestException');
}

describe('pagination', () => {
  it('defaults to 100 from the start', () => {
    expect(parsePageRequest({})).toEqual({ offset: 0, limit: 100 });
  });

  it('reads Sentry cursors and per_page', () => {
    expect(parsePageRequest({ cursor: '0:200:0', per_page: '50' })).toEqual({ offset: 200, limit: 50 });
  });

  it.each([['abc'], ['1:2'], ['0:-1:0'], ['0:1:2']])('rejects cursor %s', (cursor) => {
    expect(capture(() => parsePageRequest({ cursor })).getResponse()).toEqual({ detail: 'Invalid cursor parameter.' });
  });

  it.each([['0'], ['101'], ['x'], ['1.5']])('rejects per_page %s', (perPage) => {
    const error = capture(() => parsePageRequest({ per_page: perPage }));
    expect(error.getResponse()).toEqual({ detail: 'Invalid per_page parameter.' });
  });

  it('writes previous and next links in Sentry format', () => {
    const header = linkHeader('http://h/api/0/x/', { per_page: '2', cursor: '0:2:0' }, { offset: 2, limit: 2 }, true);
    expect(header).toBe(
      '<http://h/api/0/x/?per_page=2&cursor=0%3A0%3A1>; rel="previous"; results="true"; cursor="0:0:1", ' +
        '<http://h/api/0/x/?per_page=2&cursor=0%3A4%3A0>; rel="next"; results="true"; cursor="0:4:0"',
    );
  });
});
