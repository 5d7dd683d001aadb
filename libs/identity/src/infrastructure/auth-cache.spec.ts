import { AuthCache } from './auth-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('AuthCache', () => {
  it('shares one load between concurrent misses of a key and keeps its answer, null included', async () => {
    const cache = new AuthCache();
    const pending = deferred<string | null>();
    let loads = 0;
    const load = () => {
      loads++;
      return pending.promise;
    };
    const answers = Promise.all([cache.getOrLoad('token:a', load), cache.getOrLoad('token:a', load)]);
    pending.resolve(null);
    expect(await answers).toEqual([null, null]);
    expect(await cache.getOrLoad('token:a', load)).toBeNull();
    expect(loads).toBe(1);
  });

  it('answers the waiters of a load that began before clear() without keeping its result', async () => {
    const cache = new AuthCache();
    const pending = deferred<string>();
    const waiting = cache.getOrLoad('org:1:acme', () => pending.promise);
    cache.clear();
    pending.resolve('before');
    expect(await waiting).toBe('before');
    expect(await cache.getOrLoad('org:1:acme', async () => 'after')).toBe('after');
  });

  it('keeps no failed load: the next request loads again', async () => {
    const cache = new AuthCache();
    await expect(cache.getOrLoad('session:x', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.getOrLoad('session:x', async () => 'loaded')).toBe('loaded');
  });
});
