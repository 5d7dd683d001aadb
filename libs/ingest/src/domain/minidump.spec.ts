import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { EnvelopeError } from './envelope-error';
import type { FormEntry } from './attachment-upload';
import { minidumpEnvelope, readCrashReason } from './minidump';

const NEW_ID = 'f'.repeat(32);

/** A minidump of a header, a directory and the given streams (type and bytes), laid out one after the other. */
function dump(streams: Array<{ type: number; data: Buffer }>): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0x504d444d, 0);
  header.writeUInt32LE(streams.length, 8);
  header.writeUInt32LE(32, 12);
  const directory = Buffer.alloc(12 * streams.length);
  let rva = 32 + directory.length;
  streams.forEach((stream, index) => {
    directory.writeUInt32LE(stream.type, index * 12);
    directory.writeUInt32LE(stream.data.length, index * 12 + 4);
    directory.writeUInt32LE(rva, index * 12 + 8);
    rva += stream.data.length;
  });
  return Buffer.concat([header, directory, ...streams.map((stream) => stream.data)]);
}
const exception = (code: number) => {
  const data = Buffer.alloc(168);
  data.writeUInt32LE(code, 8);
  return { type: 6, data };
};
const systemInfo = (platform: number) => {
  const data = Buffer.alloc(56);
  data.writeUInt32LE(platform, 20);
  return { type: 7, data };
};
const file = (data: Buffer, filename = 'crash.dmp') => ({ filename, contentType: 'application/octet-stream', data });
const eventOf = (entries: FormEntry[]) => JSON.parse(minidumpEnvelope(entries, NEW_ID).items[0].payload.toString('utf8'));

describe('minidump uploads', () => {
  it('names the crash by its code for the operating system the dump records', () => {
    expect(readCrashReason(dump([exception(0xc0000005)]))).toEqual({ name: 'EXCEPTION_ACCESS_VIOLATION' });
    expect(readCrashReason(dump([systemInfo(0x8201), exception(11)]))).toEqual({ name: 'SIGSEGV', os: 'Linux' });
    expect(readCrashReason(dump([exception(1), systemInfo(0x8101)]))).toEqual({ name: 'EXC_BAD_ACCESS', os: 'macOS' });
    expect(readCrashReason(dump([systemInfo(2), exception(0x12345)]))).toEqual({ name: '0x00012345', os: 'Windows' });
    expect(readCrashReason(dump([systemInfo(2)]))).toBeNull();
  });

  it('makes a native event of the upload, the dump its minidump attachment and other files attachments', () => {
    const envelope = minidumpEnvelope(
      [
        ['upload_file_minidump', file(dump([exception(0xc00000fd)]))],
        ['sentry', JSON.stringify({ release: 'app@1', user: { id: '7' } })],
        ['sentry[tags][build]', 'nightly'],
        ['sentry[environment]', 'prod'],
        ['channel', 'beta'],
        ['log', file(Buffer.from('bye'), 'app.log')],
      ],
      NEW_ID,
    );
    expect(envelope.header.event_id).toBe(NEW_ID);
    expect(envelope.items.map((item) => [item.type, item.header.attachment_type, item.header.filename])).toEqual([
      ['event', undefined, undefined],
      ['attachment', 'event.minidump', 'crash.dmp'],
      ['attachment', 'event.attachment', 'app.log'],
    ]);
    expect(JSON.parse(envelope.items[0].payload.toString('utf8'))).toEqual({
      event_id: NEW_ID,
      level: 'fatal',
      platform: 'native',
      release: 'app@1',
      environment: 'prod',
      user: { id: '7' },
      tags: { build: 'nightly' },
      extra: { channel: 'beta' },
      exception: {
        values: [
          {
            type: 'EXCEPTION_STACK_OVERFLOW',
            value: 'Fatal Error: EXCEPTION_STACK_OVERFLOW',
            mechanism: { type: 'minidump', handled: false, synthetic: true },
          },
        ],
      },
    });
  });

  it("keeps the SDK's event id and exception, and titles a dump without an exception stream Minidump", () => {
    const id = 'a'.repeat(32);
    expect(
      eventOf([
        ['upload_file_minidump', file(dump([]))],
        ['sentry[event_id]', id],
      ]),
    ).toMatchObject({
      event_id: id,
      exception: { values: [{ type: 'Minidump', value: 'Fatal Error: unknown crash reason' }] },
    });
    const own = { values: [{ type: 'Crash', value: 'own' }] };
    expect(
      eventOf([
        ['upload_file_minidump', file(dump([]))],
        ['sentry', JSON.stringify({ exception: own })],
      ]).exception,
    ).toEqual(own);
  });

  it('refuses a form without a dump, a file that is no minidump, and bad sentry fields', () => {
    const refusal = (entries: FormEntry[]) => {
      try {
        minidumpEnvelope(entries, NEW_ID);
      } catch (error) {
        return error instanceof EnvelopeError ? error.message : error;
      }
      return 'accepted';
    };
    const good: FormEntry = ['upload_file_minidump', file(dump([]))];
    expect(refusal([])).toBe('the form has no upload_file_minidump file');
    expect(refusal([['upload_file_minidump', 'text, not a file']])).toBe('the form has no upload_file_minidump file');
    expect(refusal([['upload_file_minidump', file(Buffer.from('PK\u0003\u0004 a zip, not a dump at all'))]])).toBe(
      'upload_file_minidump is not a minidump (no MDMP signature)',
    );
    expect(refusal([good, ['sentry', '[1]']])).toBe('the sentry field must be a JSON object');
    expect(refusal([good, ['sentry[__proto__][x]', '1']])).toBe('form field sentry[__proto__][x] nests too deep or names no key');
    expect(refusal([good, [`sentry${'[a]'.repeat(9)}`, '1']])).toMatch(/nests too deep/);
    expect(refusal(Array.from({ length: 201 }, () => good))).toBe('the form has more than 200 fields');
  });

  it('reads any bytes after the signature without throwing anything but a refusal', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const data = Buffer.concat([Buffer.from('MDMP'), Buffer.from(bytes)]);
        expect(() => readCrashReason(data)).not.toThrow();
      }),
    );
    fc.assert(
      fc.property(anyText, anyText, (name, value) => {
        try {
          minidumpEnvelope(
            [
              ['upload_file_minidump', file(dump([]))],
              [`sentry[${name}]`, value],
            ],
            NEW_ID,
          );
        } catch (error) {
          expect(error).toBeInstanceOf(EnvelopeError);
        }
      }),
    );
  });
});
