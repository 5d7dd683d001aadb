import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { transformFileSync } from '@swc/core';
import { lockDataDir } from './data-dir-lock';

const RACERS = 8;
const ATTEMPTS_PER_RACER = 25;
const ROUNDS = 10;

/** A process taking DATA_DIR's lock on command: `acquire N` makes N attempts at once and says how many hold it; `release` lets them go. */
const RACER = `
const { lockDataDir } = require(process.argv[2]);
let held = [];
require('node:readline').createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, count] = line.split(' ');
  if (command === 'acquire') {
    const attempt = () => lockDataDir(process.argv[3]).catch((error) => ({ failed: String(error) }));
    const locks = await Promise.all(Array.from({ length: Number(count) }, attempt));
    held = locks.filter((lock) => 'release' in lock);
    const failed = locks.filter((lock) => 'failed' in lock).map((lock) => lock.failed);
    process.stdout.write('held ' + held.length + (failed.length ? ' failed: ' + failed[0] : '') + '\\n');
  } else {
    await Promise.all(held.map((lock) => lock.release()));
    held = [];
    process.stdout.write('released\\n');
  }
});
`;

interface Racer {
  readonly child: ChildProcess;
  ask(command: string): Promise<string>;
}

describe('the DATA_DIR lock', () => {
  let scratch: string;
  let dataDir: string;
  let racers: Racer[] = [];

  function startRacer(): Racer {
    const child = spawn(process.execPath, [join(scratch, 'racer.cjs'), join(scratch, 'lock.cjs'), dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
    const answers: Array<(line: string) => void> = [];
    createInterface({ input: child.stdout! }).on('line', (line) => answers.shift()?.(line));
    return {
      child,
      ask: (command) =>
        new Promise((resolve) => {
          answers.push(resolve);
          child.stdin!.write(`${command}\n`);
        }),
    };
  }

  /** The racer that holds the lock, killed as `kill -9` would: the next round starts from a holder that died. */
  async function killHolder(answers: string[]): Promise<number> {
    const index = answers.findIndex((answer) => Number(answer.split(' ')[1]) > 0);
    const holder = racers[index].child;
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    racers[index] = startRacer();
    return holder.pid!;
  }

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'faultline-lock-'));
    dataDir = join(scratch, 'data');
    writeFileSync(join(scratch, 'lock.cjs'), transformFileSync(join(__dirname, 'data-dir-lock.ts'), { module: { type: 'commonjs' } }).code);
    writeFileSync(join(scratch, 'racer.cjs'), RACER);
    mkdirSync(dataDir);
    racers = Array.from({ length: RACERS }, startRacer);
  });

  afterAll(() => {
    for (const { child } of racers) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  });

  it(`has exactly one holder when ${RACERS * ATTEMPTS_PER_RACER} attempts from ${RACERS} processes race, after a release and after a kill -9`, async () => {
    const rounds: string[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(racers.map((racer) => racer.ask(`acquire ${ATTEMPTS_PER_RACER}`)));
      rounds.push(answers);
      if (round % 2) await killHolder(answers);
      await Promise.all(racers.map((racer) => racer.ask('release')));
    }
    const holders = rounds.map((answers) => answers.reduce((sum, answer) => sum + Number(answer.split(' ')[1]), 0));
    expect(holders).toEqual(Array.from({ length: ROUNDS }, () => 1));
    expect(rounds.flat().filter((answer) => answer.includes('failed'))).toEqual([]);
  });

  it('names the holding process, and is free again once the holder is killed with SIGKILL', async () => {
    const answers = await Promise.all(racers.map((racer) => racer.ask('acquire 1')));
    expect(await lockDataDir(dataDir)).toEqual({ heldBy: racers[answers.indexOf('held 1')].child.pid });

    await killHolder(answers);
    const lock = await lockDataDir(dataDir);
    expect('release' in lock).toBe(true);
    if ('release' in lock) await lock.release();
  });
});
