import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { ScimTokenOwner } from '@faultline/identity';

/**
 * SCIM tokens resolved in the last few seconds, so that a provider's burst of requests costs one
 * lookup (concurrent misses share it). Changes to a provider in this process clear it at once;
 * other processes (and a plan change) are seen within TTL_MS, as with API tokens.
 */
@Injectable()
export class ScimTokenCache {
  static readonly TTL_MS = 5_000;
  private static readonly MAX_ENTRIES = 1_000;
  private readonly owners = new LRUCache<string, ScimTokenOwner, () => Promise<ScimTokenOwner | undefined>>({
    max: ScimTokenCache.MAX_ENTRIES,
    ttl: ScimTokenCache.TTL_MS,
    // Only tokens that exist are kept (lru-cache keeps no undefined), so guessing cannot fill the cache.
    fetchMethod: (_hash, _stale, { context: load }) => load(),
    // A lookup cut short by clear() still answers its waiters; lru-cache then does not keep it.
    ignoreFetchAbort: true,
  });

  getOrLoad(hash: string, load: () => Promise<ScimTokenOwner | undefined>): Promise<ScimTokenOwner | undefined> {
    return this.owners.fetch(hash, { context: load });
  }

  clear(): void {
    this.owners.clear();
  }
}
