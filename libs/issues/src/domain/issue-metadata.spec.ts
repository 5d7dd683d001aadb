import { mainException } from './issue-metadata';

describe('mainException', () => {
  it('is the last exception of the chain, its type and value', () => {
    expect(
      mainException([
        { type: 'Inner', value: 'a' },
        { type: 'TypeError', value: 'x is undefined', stacktrace: {} },
      ]),
    ).toEqual({
      type: 'TypeError',
      value: 'x is undefined',
    });
  });

  it('is none for an event without exceptions, and keeps only strings', () => {
    expect(mainException(undefined)).toBeNull();
    expect(mainException([])).toBeNull();
    expect(mainException([{ type: 42, value: 'v' }])).toEqual({ type: undefined, value: 'v' });
  });
});
