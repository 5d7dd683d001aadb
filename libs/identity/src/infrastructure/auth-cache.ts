import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/** A load's result, boxed so that "not found" (null) is kept like any other answer. */
interface Loaded {
  readonly value: unknown;
}

/**
 * A short-lived cache of resolved tokens and organization access, so an authenticated read costs
 * one query instead of three. Changes made in this process clear it at once; other processes see
 * them within TTL_MS.
 *
 * Concurrent misses of one key share a single load. A load that began before `clear()` still
 * answers the requests that were waiting for it, but its result is not kept.
 */
@Injectable()
export class AuthCache {
  static readonly TTL_MS = 5_000;
  private static readonly MAX_ENTRIES = 10_000;
  private readonly entries = new LRUCache<string, Loaded, () => Promise<unknown>>({
    max: AuthCache.MAX_ENTRIES,
    ttl: AuthCache.TTL_MS,
    fetchMethod: async (_key, _stale, { context: load }) => ({ value: await load() }),
    // A load cut short by clear() still answers its waiters; lru-cache then does not keep it.
    ignoreFetchAbort: true,
  });

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    return (await this.entries.forceFetch(key, { context: load })).value as T;
  }

  clear(): void {
    this.entries.clear();
  }
}
