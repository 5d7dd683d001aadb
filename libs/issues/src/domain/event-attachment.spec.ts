import fc from 'fast-check';
import { chunkRanges, describeAttachment, downloadDisposition, EVENT_ATTACHMENT_LIMITS, sizeRefusal } from './event-attachment';

describe('event attachments', () => {
  it('fills in what the sender left out, and refuses a content type that is no media type', () => {
    expect(describeAttachment({})).toEqual({ type: 'event.attachment', name: 'Unnamed Attachment', contentType: 'application/octet-stream' });
    expect(describeAttachment({ type: 'event.minidump', name: ' crash.dmp ', contentType: 'application/x-dmp' })).toEqual({
      type: 'event.minidump',
      name: 'crash.dmp',
      contentType: 'application/x-dmp',
    });
    expect(describeAttachment({ contentType: 'text/html\r\nSet-Cookie: a=b' }).contentType).toBe('application/octet-stream');
    expect(describeAttachment({ contentType: 'text/plain; charset=utf-8' }).contentType).toBe('text/plain; charset=utf-8');
    expect([...describeAttachment({ name: '€'.repeat(1000) }).name]).toHaveLength(EVENT_ATTACHMENT_LIMITS.maxNameLength);
  });

  it('refuses only what is over the limit', () => {
    expect(sizeRefusal(10, 10)).toBeNull();
    expect(sizeRefusal(11, 10)).toBe('too_large');
  });

  it('cuts any size into contiguous chunks of at most the chunk size', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 1000 }), (size, chunk) => {
        const ranges = chunkRanges(size, chunk);
        expect(ranges.every(([start, end]) => end - start <= chunk && end > start)).toBe(true);
        expect(ranges.map(([start]) => start)).toEqual(ranges.map((_, index) => index * chunk));
        expect(ranges.at(-1)?.[1] ?? 0).toBe(size);
      }),
    );
  });

  it("offers Sentry's download name, in a header nothing can break out of", () => {
    expect(downloadDisposition('logs/app  run.log')).toBe(`attachment; filename="app run.log"; filename*=UTF-8''app%20run.log`);
    expect(downloadDisposition('résumé "1".txt')).toBe(`attachment; filename="r_sum_ _1_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.txt`);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (name) => {
        expect(downloadDisposition(name)).toMatch(/^attachment; filename="[\x20-\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%._~!-]*$/);
      }),
    );
  });
});
