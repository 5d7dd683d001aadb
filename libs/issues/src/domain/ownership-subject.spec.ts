import { ownershipSubjectOf } from './ownership-subject';

describe('ownershipSubjectOf', () => {
  it("reads the thrown exception's frames innermost first, then its causes', the event's and the threads'", () => {
    const frame = (name: string) => ({ filename: `${name}.js`, absPath: `/app/${name}.js`, module: `app.${name}` });
    const subject = ownershipSubjectOf(
      {
        exceptions: [{ stacktrace: { frames: [frame('cause')] } }, { stacktrace: { frames: [frame('outer'), frame('inner')] } }],
        stacktrace: { frames: [frame('event')] },
        threads: [{ stacktrace: { frames: [{ abs_path: 'thread.js' }] } }],
        request: { url: 'https://shop.example.com/checkout' },
      },
      [['browser', 'Chrome']],
    );
    expect(subject.paths).toEqual([
      'inner.js',
      '/app/inner.js',
      'outer.js',
      '/app/outer.js',
      'cause.js',
      '/app/cause.js',
      'event.js',
      '/app/event.js',
      'thread.js',
    ]);
    expect(subject.modules).toEqual(['app.inner', 'app.outer', 'app.cause', 'app.event']);
    expect(subject.url).toBe('https://shop.example.com/checkout');
    expect(subject.tags).toEqual([['browser', 'Chrome']]);
  });

  it('reads nothing from an event without frames or request', () => {
    expect(ownershipSubjectOf({ message: 'x', exceptions: 'nonsense' }, [])).toEqual({ paths: [], modules: [], url: undefined, tags: [] });
  });
});
