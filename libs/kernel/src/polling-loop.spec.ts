import { PollingLoop } from './polling-loop';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PollingLoop', () => {
  it('goes again at once while there is more, pauses when idle, and wake() ends the pause', async () => {
    let rounds = 0;
    const loop = new PollingLoop({ runOnce: async () => ++rounds < 3, idleDelayMs: 10_000, onError: () => undefined });
    loop.start();
    await tick(20);
    expect(rounds).toBe(3);
    loop.wake();
    await tick(20);
    expect(rounds).toBe(4);
    await loop.stop();
    expect(loop.running).toBe(false);
  });

  it('backs off after failures, and wake() does not shorten the back-off', async () => {
    const failures: number[] = [];
    const loop = new PollingLoop({
      runOnce: async () => {
        throw new Error('down');
      },
      idleDelayMs: 10,
      retryDelayMs: 10_000,
      onError: (_error, count) => failures.push(count),
    });
    loop.start();
    await tick(20);
    loop.wake();
    await tick(20);
    expect(failures).toEqual([1]);
    await loop.stop();
  });

  it('lets the round in hand finish on stop()', async () => {
    let finished = false;
    const loop = new PollingLoop({
      runOnce: async () => {
        await tick(30);
        finished = true;
        return false;
      },
      idleDelayMs: 10_000,
      onError: () => undefined,
    });
    loop.start();
    await tick(5);
    await loop.stop();
    expect(finished).toBe(true);
  });
});
