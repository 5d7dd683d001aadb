import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, fstatSync, openSync, readSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import { isNumericId } from '@faultline/kernel';

/**
 * A Faultline backup file: one gzip stream (`zcat` reads it, and says the last line is trailing
 * garbage) of
 *
 *   FAULTLINE-BACKUP 1\n
 *   <header: JSON, one line>\n
 *   for each table of the header, in order: frames (uint32 BE length, then that many bytes of the
 *     table's COPY stream), ended by a frame of length 0
 *   <trailer: JSON, one line>\n            rows, bytes and sha256 of each table's COPY stream
 *
 * then, after the gzip stream, one line of plain text: `FAULTLINE-SHA256 <hex>\n`, the digest of
 * every byte before it. gzip alone leaves bytes unchecked (its header's time and platform, spare
 * bits at the end of the compressed data, zeros after it); with the digest, a change to any byte
 * of the file, or a file cut short or extended, is detected.
 */
export const FORMAT_VERSION = 1;
const MAGIC = `FAULTLINE-BACKUP ${FORMAT_VERSION}`;
const DIGEST_PREFIX = 'FAULTLINE-SHA256 ';
const DIGEST_LINE_BYTES = DIGEST_PREFIX.length + 64 + 1;
const GZIP_MAGIC = 0x1f8b;
/** A length larger than this in a frame, or a longer JSON line, is corruption (COPY chunks are far smaller). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface BackupColumn {
  readonly name: string;
  /** As PostgreSQL writes it (format_type): the restored table's column must be the same. */
  readonly type: string;
}

export interface BackupTable {
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly BackupColumn[];
  /** The COPY format of its stream: binary, or text where a column has a type of the database's own (its id differs in another cluster). */
  readonly format: 'binary' | 'text';
}

export interface BackupSequence {
  readonly schema: string;
  readonly name: string;
  /** null: never used. */
  readonly lastValue: string | null;
}

export interface BackupHeader {
  readonly format: number;
  readonly faultlineVersion: string;
  readonly createdAt: string;
  readonly postgresMajor: number;
  /** The migrations applied to the database, in the order they ran: the schema the tables' streams fit. */
  readonly migrations: readonly string[];
  readonly tables: readonly BackupTable[];
  readonly sequences: readonly BackupSequence[];
}

export interface TableDigest {
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}

export interface BackupTrailer {
  readonly tables: readonly TableDigest[];
}

export interface BackupManifest {
  readonly header: BackupHeader;
  readonly trailer: BackupTrailer;
}

/** The file is not a whole, unchanged Faultline backup. */
export class BackupFileError extends Error {}

/**
 * Writes a backup to `<path>.tmp`, renamed to `path` by finish(): a file at `path` is whole or absent.
 * Call writeHeader, writeTable for each table of the header in order, then finish (or abort).
 */
export class BackupFileWriter {
  private readonly digests: TableDigest[] = [];
  private tables = 0;
  private written = 0;

  private constructor(
    private readonly path: string,
    private readonly gzip: Gzip,
    private readonly file: WriteStream,
    private readonly done: Promise<void>,
  ) {}

  static create(path: string): BackupFileWriter {
    const gzip = createGzip();
    const file: WriteStream = createWriteStream(`${path}.tmp`, { mode: 0o600, flush: true });
    const done = pipeline(gzip, digestAppended(), file);
    // Seen by finish() or abort(); not an unhandled rejection meanwhile.
    done.catch(() => undefined);
    return new BackupFileWriter(path, gzip, file, done);
  }

  /** Uncompressed bytes written so far. */
  get bytes(): number {
    return this.written;
  }

  async writeHeader(header: BackupHeader): Promise<void> {
    await this.write(Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`));
    this.tables = header.tables.length;
  }

  /** Writes one table's COPY stream; `rows` is asked once the stream has ended. */
  async writeTable(stream: AsyncIterable<Buffer>, rows: () => number): Promise<TableDigest> {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of stream) {
      if (chunk.length === 0) continue;
      hash.update(chunk);
      bytes += chunk.length;
      await this.write(frameLength(chunk.length));
      await this.write(chunk);
    }
    await this.write(frameLength(0));
    const digest = { rows: rows(), bytes, sha256: hash.digest('hex') };
    this.digests.push(digest);
    return digest;
  }

  async finish(): Promise<void> {
    if (this.digests.length !== this.tables) throw new Error(`${this.digests.length} of ${this.tables} tables written`);
    const trailer: BackupTrailer = { tables: this.digests };
    this.gzip.end(Buffer.from(`${JSON.stringify(trailer)}\n`));
    await this.done;
    renameSync(`${this.path}.tmp`, this.path);
  }

  async abort(): Promise<void> {
    this.gzip.destroy();
    await this.done.catch(() => undefined);
    // The pipeline settles on the error before a file still being opened is closed; removed before
    // that, the file would be created again after its removal.
    if (!this.file.closed) await new Promise<void>((closed) => this.file.once('close', () => closed()));
    rmSync(`${this.path}.tmp`, { force: true });
  }

  private async write(bytes: Buffer): Promise<void> {
    this.written += bytes.length;
    if (!this.gzip.write(bytes)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }
}

function frameLength(length: number): Buffer {
  const frame = Buffer.alloc(4);
  frame.writeUInt32BE(length);
  return frame;
}

/** Passes the file's bytes through, and after them the line with their digest. */
function digestAppended(): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(null, Buffer.from(`${DIGEST_PREFIX}${hash.digest('hex')}\n`));
    },
  });
}

/** What reading a backup does with each table's stream: read it into the database, or nothing (a check). */
export interface BackupReader {
  header?(header: BackupHeader): Promise<void>;
  /** Must consume `data` to its end. */
  table?(table: BackupTable, index: number, data: Readable): Promise<void>;
}

/**
 * Reads a backup from start to end, checking every byte: the file's digest, the compressed stream,
 * the format and each table's digest. Throws BackupFileError at the first
 * problem; the `reader`'s work on what came before it must then be undone by the caller.
 */
export async function readBackupFile(path: string, reader: BackupReader = {}): Promise<BackupManifest> {
  const { start, digestLine, size } = ends(path);
  if (start.readUInt16BE() !== GZIP_MAGIC) throw new BackupFileError('not a Faultline backup (not gzip)');
  if (size <= DIGEST_LINE_BYTES) throw new BackupFileError('the file is cut short');
  const source = createReadStream(path, { end: size - DIGEST_LINE_BYTES - 1 });
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  const decompressed = pipeline(source, digestChecked(digestLine), gunzip);
  decompressed.catch(() => undefined);
  const input = new ByteReader(gunzip[Symbol.asyncIterator](), decompressed);
  try {
    const manifest = await readContent(input, reader);
    await decompressed;
    return manifest;
  } catch (error) {
    source.destroy();
    gunzip.destroy();
    throw error;
  }
}

/** The file's first two bytes and its last line's worth of bytes. */
function ends(path: string): { start: Buffer; digestLine: string; size: number } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Buffer.alloc(2);
    const last = Buffer.alloc(Math.min(size, DIGEST_LINE_BYTES));
    readSync(fd, start, 0, Math.min(size, 2), 0);
    readSync(fd, last, 0, last.length, size - last.length);
    return { start, digestLine: last.toString('latin1'), size };
  } finally {
    closeSync(fd);
  }
}

/** Passes the bytes before the digest line through, and checks at their end that they have that digest. */
function digestChecked(digestLine: string): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      const matches = digestLine === `${DIGEST_PREFIX}${hash.digest('hex')}\n`;
      callback(matches ? null : new BackupFileError('the file does not match its digest: it is damaged, cut short or extended'));
    },
  });
}

async function readContent(input: ByteReader, reader: BackupReader): Promise<BackupManifest> {
  const magic = await input.line();
  if (magic !== MAGIC) {
    throw new BackupFileError(
      magic.startsWith('FAULTLINE-BACKUP ') ? `backup format ${magic.slice(17)} is not one this Faultline reads` : 'not a Faultline backup',
    );
  }
  const header = parseHeader(await input.line());
  await reader.header?.(header);
  const digests: Array<{ bytes: number; sha256: string }> = [];
  for (const [index, table] of header.tables.entries()) {
    const hash = createHash('sha256');
    let bytes = 0;
    async function* frames(): AsyncGenerator<Buffer> {
      for (;;) {
        const length = (await input.exactly(4)).readUInt32BE();
        if (length === 0) return;
        if (length > MAX_FRAME_BYTES) throw new BackupFileError(`a frame of ${length} bytes in ${table.schema}.${table.name}`);
        const chunk = await input.exactly(length);
        hash.update(chunk);
        bytes += length;
        yield chunk;
      }
    }
    const data = Readable.from(frames(), { objectMode: false });
    if (reader.table) await reader.table(table, index, data);
    else for await (const _chunk of data);
    if (!data.readableEnded) throw new Error(`the stream of ${table.schema}.${table.name} was not read to its end`);
    digests.push({ bytes, sha256: hash.digest('hex') });
  }
  const trailer = parseTrailer(await input.line(), header.tables.length);
  if (!(await input.atEnd())) throw new BackupFileError('there is more after its end');
  for (const [index, digest] of digests.entries()) {
    const recorded = trailer.tables[index];
    if (recorded.bytes !== digest.bytes || recorded.sha256 !== digest.sha256) {
      const table = header.tables[index];
      throw new BackupFileError(`the data of ${table.schema}.${table.name} does not match its digest`);
    }
  }
  return { header, trailer };
}

/** A failure to read the file is itself (no such file, no permission); one of decompressing it, damage. */
function readFailure(error: unknown): Error {
  if (error instanceof BackupFileError || (error as NodeJS.ErrnoException).syscall !== undefined) return error as Error;
  return new BackupFileError(`it does not decompress (${(error as Error).message}): the file is damaged or cut short`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isName = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 63;

function parseJson(line: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (isObject(value)) return value;
  } catch {
    // reported below
  }
  throw new BackupFileError(`its ${what} is not valid`);
}

/** The header's shape, checked: a restore relies on each field before anything is created. */
function parseHeader(line: string): BackupHeader {
  const header = parseJson(line, 'header');
  const valid =
    header.format === FORMAT_VERSION &&
    typeof header.faultlineVersion === 'string' &&
    typeof header.createdAt === 'string' &&
    Number.isInteger(header.postgresMajor) &&
    Array.isArray(header.migrations) &&
    header.migrations.every(isName) &&
    Array.isArray(header.tables) &&
    header.tables.every(
      (table: unknown) =>
        isObject(table) &&
        isName(table.schema) &&
        isName(table.name) &&
        (table.format === 'binary' || table.format === 'text') &&
        Array.isArray(table.columns) &&
        table.columns.length > 0 &&
        table.columns.every((column: unknown) => isObject(column) && isName(column.name) && typeof column.type === 'string'),
    ) &&
    Array.isArray(header.sequences) &&
    header.sequences.every(
      (sequence: unknown) =>
        isObject(sequence) &&
        isName(sequence.schema) &&
        isName(sequence.name) &&
        (sequence.lastValue === null || (typeof sequence.lastValue === 'string' && isNumericId(sequence.lastValue.replace(/^-/, '')))),
    );
  if (!valid) throw new BackupFileError('its header is not valid');
  return header as unknown as BackupHeader;
}

function parseTrailer(line: string, tables: number): BackupTrailer {
  const trailer = parseJson(line, 'trailer');
  const valid =
    Array.isArray(trailer.tables) &&
    trailer.tables.length === tables &&
    trailer.tables.every(
      (digest: unknown) =>
        isObject(digest) &&
        Number.isSafeInteger(digest.rows) &&
        (digest.rows as number) >= 0 &&
        Number.isSafeInteger(digest.bytes) &&
        typeof digest.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(digest.sha256),
    );
  if (!valid) throw new BackupFileError('its trailer is not valid');
  return trailer as unknown as BackupTrailer;
}

/** Reads lines and exact byte counts from a stream of chunks. */
class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(
    private readonly source: AsyncIterator<Buffer>,
    /** The pipeline that feeds `source`: its failure is the cause of the source's. */
    private readonly feeding: Promise<void>,
  ) {}

  /** One line, without its newline. */
  async line(): Promise<string> {
    for (let from = 0; ;) {
      const newline = this.buffer.indexOf(0x0a, from);
      if (newline >= 0) {
        return this.take(newline + 1)
          .subarray(0, newline)
          .toString('utf8');
      }
      if (this.buffer.length > MAX_LINE_BYTES) throw new BackupFileError('a line longer than any this format writes');
      from = this.buffer.length;
      if (!(await this.more())) throw new BackupFileError('the file is cut short');
    }
  }

  async exactly(length: number): Promise<Buffer> {
    while (this.buffer.length < length) {
      if (!(await this.more())) throw new BackupFileError('the file is cut short');
    }
    return this.take(length);
  }

  async atEnd(): Promise<boolean> {
    return this.buffer.length === 0 && !(await this.more());
  }

  private take(length: number): Buffer {
    const bytes = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return bytes;
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    let next: IteratorResult<Buffer>;
    try {
      next = await this.source.next();
    } catch (error) {
      const cause = await this.feeding.then(
        () => error,
        (failure: unknown) => failure,
      );
      throw readFailure(cause);
    }
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }
}
