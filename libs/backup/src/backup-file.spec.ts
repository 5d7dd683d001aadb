import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { BackupFileError, BackupFileWriter, type BackupHeader, FORMAT_VERSION, readBackupFile } from './backup-file';

const header: BackupHeader = {
  format: FORMAT_VERSION,
  faultlineVersion: '0.1.0',
  createdAt: '2026-01-02T03:04:05.000Z',
  postgresMajor: 18,
  migrations: ['EventStore1763800000000', 'IdentityAndProjects1763800000100'],
  tables: [
    { schema: 'identity', name: 'users', format: 'binary', columns: [{ name: 'id', type: 'bigint' }] },
    { schema: 'issues', name: 'empty', format: 'text', columns: [{ name: 'status', type: 'issues.status' }] },
    { schema: 'issues', name: 'issues', format: 'binary', columns: [{ name: 'title', type: 'text' }] },
  ],
  sequences: [{ schema: 'identity', name: 'users_id_seq', lastValue: '42' }],
};
const tableData = [[Buffer.from('first chunk of users'), randomBytes(200)], [], [Buffer.from('issue rows')]];

describe('the backup file', () => {
  let dir: string;
  let file: string;
  let written: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-backup-file-'));
    file = join(dir, 'faultline.backup');
    const writer = BackupFileWriter.create(file);
    await writer.writeHeader(header);
    for (const chunks of tableData) await writer.writeTable(Readable.from(chunks), () => chunks.length * 10);
    await writer.finish();
    written = readFileSync(file);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const damaged = (bytes: Buffer) => {
    const path = join(dir, 'damaged.backup');
    writeFileSync(path, bytes);
    return path;
  };

  it('is gzip whose first line says what it is, then its digest; renamed into place when whole', () => {
    const digestLine = written.subarray(-82).toString('latin1');
    expect(digestLine).toMatch(/^FAULTLINE-SHA256 [0-9a-f]{64}\n$/);
    expect(gunzipSync(written.subarray(0, -82)).toString('latin1')).toMatch(/^FAULTLINE-BACKUP 1\n\{"format":1,"faultlineVersion":"0.1.0"/);
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('reads back the header, every table stream and the digests', async () => {
    const streams: Buffer[] = [];
    const manifest = await readBackupFile(file, {
      table: async (_table, index, data) => {
        const chunks: Buffer[] = [];
        for await (const chunk of data) chunks.push(chunk as Buffer);
        streams[index] = Buffer.concat(chunks);
      },
    });
    expect(manifest.header).toEqual(header);
    expect(streams).toEqual(tableData.map((chunks) => Buffer.concat(chunks)));
    expect(manifest.trailer.tables.map((table) => [table.rows, table.bytes])).toEqual([
      [20, 220],
      [0, 0],
      [10, 10],
    ]);
  });

  it('detects a changed byte anywhere in the file', async () => {
    const undetected: number[] = [];
    for (let at = 0; at < written.length; at++) {
      const bytes = Buffer.from(written);
      bytes[at] ^= 0x01 << (at % 8);
      const error = await readBackupFile(damaged(bytes)).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      if (!(error instanceof BackupFileError)) undetected.push(at);
    }
    expect(undetected).toEqual([]);
  });

  it('detects a file cut short anywhere, or with more after its end', async () => {
    const undetected: number[] = [];
    for (let length = 0; length < written.length; length++) {
      const error = await readBackupFile(damaged(written.subarray(0, length))).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      if (!(error instanceof BackupFileError)) undetected.push(length);
    }
    expect(undetected).toEqual([]);
    for (const more of [Buffer.alloc(1), Buffer.alloc(512), Buffer.from('more'), written]) {
      await expect(readBackupFile(damaged(Buffer.concat([written, more])))).rejects.toThrow(BackupFileError);
    }
  });

  it('refuses a file that is not a backup, and says so', async () => {
    await expect(readBackupFile(damaged(Buffer.from('hello\n')))).rejects.toThrow('not a Faultline backup (not gzip)');
    await expect(readBackupFile(damaged(Buffer.alloc(0)))).rejects.toThrow('not a Faultline backup (not gzip)');
  });

  it('leaves no file behind when a backup is abandoned', async () => {
    const path = join(dir, 'abandoned.backup');
    const writer = BackupFileWriter.create(path);
    await writer.writeHeader(header);
    await writer.abort();
    expect(existsSync(path) || existsSync(`${path}.tmp`)).toBe(false);
  });
});
