import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import type { OriginalPosition } from '../domain/symbolicate-frames';
import {
  SOURCE_MAP_WORKER,
  SOURCE_MAP_WORKER_READY,
  type SourceMapWorkerReply,
  type SourceMapWorkerRequest,
  type SourceMapWorkerSettings,
} from './source-map.worker';

export interface SourceMapWorkersSettings extends SourceMapWorkerSettings {
  workers: number;
  /** Each thread's heap (V8's old generation), which its cache and one request's parsing share. */
  heapMb: number;
  /** How long one request may take before its thread is stopped. */
  timeoutMs: number;
}

/** What the positions of one request answered; `invalid` per map, positions in the order asked. */
export interface MapAnswers {
  invalid: boolean[];
  positions: Array<OriginalPosition | null>;
}

/** Maps whose parsing ended a thread, remembered so they never do so twice. */
const MAX_REMEMBERED_FATAL_MAPS = 10_000;
/** Positions answered, kept in this thread so an event of a known issue needs no message. */
const ANSWERED_BYTES = 16 * 1024 * 1024;

/** What an answered position holds: its strings (two bytes a character at most) and their objects. */
const NO_POSITION = Symbol('no position');

function weight(position: OriginalPosition | null): number {
  if (!position) return 64;
  let chars = position.source.length + position.filename.length + (position.name?.length ?? 0);
  for (const line of [...(position.context?.pre ?? []), position.context?.line ?? '', ...(position.context?.post ?? [])]) chars += line.length + 32;
  return 256 + 2 * chars;
}

/** Its thread died; `culprit` when it was this request the thread was working on. */
export class ThreadDied extends Error {
  constructor(
    message: string,
    readonly culprit: boolean,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(reply: SourceMapWorkerReply): void;
  reject(error: Error): void;
}

/** One thread: started when first needed, and again after it died. */
class SourceMapThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Runs while the thread works: re-armed at each answer, so it times the request being worked on, not the queue. */
  private watchdog: NodeJS.Timeout | null = null;
  /** Whether the thread has loaded its code: its start is not counted against a request. */
  private ready = false;

  constructor(private readonly settings: SourceMapWorkersSettings) {}

  send(request: Omit<SourceMapWorkerRequest, 'id'>): Promise<SourceMapWorkerReply> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.arm(worker);
      worker.postMessage({ ...request, id } satisfies SourceMapWorkerRequest);
    });
  }

  private arm(worker: Worker): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    if (this.pending.size === 0 || !this.ready) return;
    this.watchdog = setTimeout(() => {
      void worker.terminate();
      this.fail(worker, new Error(`source map thread spent over ${this.settings.timeoutMs} ms on one request`));
    }, this.settings.timeoutMs);
    this.watchdog.unref();
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.fail(worker, new Error('source map thread stopped'));
    await worker.terminate();
  }

  private start(): Worker {
    const { workers: _workers, heapMb, timeoutMs: _timeoutMs, ...data } = this.settings;
    const worker = spawn({ ...data, role: SOURCE_MAP_WORKER }, heapMb);
    worker.unref();
    this.ready = false;
    worker.on('message', (reply: SourceMapWorkerReply | typeof SOURCE_MAP_WORKER_READY) => {
      if (reply === SOURCE_MAP_WORKER_READY) {
        this.ready = true;
        return this.arm(worker);
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      this.arm(worker);
      pending.resolve(reply);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`source map thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /**
   * A dead thread fails what it was asked; the next request starts another. It answers in the
   * order it was asked, so the oldest request waiting is the one it was working on.
   */
  private fail(worker: Worker, reason: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    let culprit = true;
    for (const pending of this.pending.values()) {
      pending.reject(new ThreadDied(reason.message, culprit));
      culprit = false;
    }
    this.pending.clear();
  }
}

/**
 * Parses source maps and resolves positions through them in worker threads with a bounded heap,
 * so that a map that would take more memory than allowed ends its thread, not the process; the
 * thread is replaced, and the maps it was parsing are refused from then on. An organization's
 * maps always go to the same thread, where they stay cached.
 */
export class SourceMapWorkers {
  private readonly threads: SourceMapThread[];
  private readonly fatal = new LRUCache<string, true>({ max: MAX_REMEMBERED_FATAL_MAPS });
  /** Positions answered, by map and position; a position the map has none for is kept as NO_POSITION. */
  private readonly answered = new LRUCache<string, OriginalPosition | typeof NO_POSITION>({ maxSize: ANSWERED_BYTES });

  constructor(settings: SourceMapWorkersSettings) {
    this.threads = Array.from({ length: settings.workers }, () => new SourceMapThread(settings));
  }

  /**
   * Resolves positions ([index in maps, line, column]) through maps named by key. Positions
   * answered before are answered here (an issue's frames repeat in every event of it); the others
   * go to the organization's thread in one message.
   */
  async resolve(
    shard: string,
    maps: readonly string[],
    positions: ReadonlyArray<[number, number, number]>,
    read: (keys: string[]) => Promise<Map<string, Buffer | null>>,
  ): Promise<MapAnswers> {
    const keyOf = ([map, line, column]: readonly [number, number, number]) => `${maps[map]}:${line}:${column}`;
    const remembered = positions.map((position) => {
      const found = this.answered.get(keyOf(position));
      return found === NO_POSITION ? null : found;
    });
    const open = positions.filter((_, i) => remembered[i] === undefined);
    if (open.length === 0) return { invalid: maps.map(() => false), positions: remembered as Array<OriginalPosition | null> };
    // Only the maps of positions not answered yet are asked: the others answered before, so they parse.
    const asked = [...new Set(open.map(([map]) => map))];
    const askedIndex = new Map(asked.map((map, i) => [map, i]));
    const answers = await this.ask(
      shard,
      asked.map((map) => maps[map]),
      open.map(([map, line, column]): [number, number, number] => [askedIndex.get(map) as number, line, column]),
      read,
    );
    let next = 0;
    const resolved = positions.map((position, i) => {
      if (remembered[i] !== undefined) return remembered[i];
      const answer = answers.positions[next++];
      if (!answers.invalid[askedIndex.get(position[0]) as number]) this.answered.set(keyOf(position), answer ?? NO_POSITION, { size: weight(answer) });
      return answer;
    });
    return { invalid: maps.map((_, map) => askedIndex.has(map) && answers.invalid[askedIndex.get(map) as number]), positions: resolved };
  }

  /**
   * Asks the organization's thread, reading through `read` (once per request) the maps it does not
   * hold. When the thread dies parsing this request's maps, or takes too long, they are answered
   * invalid and never parsed again; a request that was only waiting behind another's is asked
   * again of the new thread.
   */
  private async ask(
    shard: string,
    maps: readonly string[],
    positions: ReadonlyArray<[number, number, number]>,
    read: (keys: string[]) => Promise<Map<string, Buffer | null>>,
  ): Promise<MapAnswers> {
    const usable = maps.map((key) => this.fatal.get(key) === undefined);
    const keys = maps.filter((_, index) => usable[index]);
    const index = new Map(keys.map((key, i) => [key, i]));
    const asked = positions
      .filter(([map]) => usable[map])
      .map(([map, line, column]): [number, number, number] => [index.get(maps[map]) as number, line, column]);
    const thread = this.threads[shardOf(shard, this.threads.length)];
    const invalid = { invalid: maps.map(() => true), positions: positions.map(() => null) };
    if (keys.length === 0) return invalid;
    for (let attempt = 1; ; attempt++) {
      let reply: SourceMapWorkerReply;
      try {
        reply = await thread.send({ maps: keys, positions: asked });
        if ('missing' in reply) {
          const contents = await read(reply.missing);
          try {
            reply = await thread.send({
              maps: keys,
              positions: asked,
              contents: Object.fromEntries(reply.missing.map((key) => [key, contents.get(key) ?? null])),
            });
          } catch (error) {
            if (!(error instanceof ThreadDied) || !error.culprit) throw error;
            for (const [key, content] of contents) if (content) this.fatal.set(key, true);
            return invalid;
          }
        }
      } catch (error) {
        if (error instanceof ThreadDied && attempt < 2) continue;
        return invalid;
      }
      if ('missing' in reply) return invalid;
      const answers = reply.positions;
      let next = 0;
      return {
        invalid: maps.map((key, i) => !usable[i] || (reply as { invalid: boolean[] }).invalid[index.get(key) as number]),
        positions: positions.map(([map]) => (usable[map] ? (answers[next++] ?? null) : null)),
      };
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.stop()));
  }
}

function shardOf(key: string, count: number): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % count;
}

/**
 * The thread runs the compiled worker; from TypeScript sources (the tests) it compiles the
 * worker's own modules with swc as they load.
 */
function spawn(data: SourceMapWorkerSettings & { role: string }, heapMb: number): Worker {
  const options = { workerData: data, resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 } };
  const compiled = join(__dirname, 'source-map.worker.js');
  if (existsSync(compiled)) return new Worker(compiled, options);
  const source = join(__dirname, 'source-map.worker.ts');
  const loader = `
    const { readFileSync } = require('node:fs');
    const { transformSync } = require('@swc/core');
    require.extensions['.ts'] = (module, filename) => module._compile(transformSync(readFileSync(filename, 'utf8'), {
      filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' },
    }).code, filename);
    require(${JSON.stringify(source)});`;
  return new Worker(loader, { ...options, eval: true });
}
