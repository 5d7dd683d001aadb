import { Injectable } from '@nestjs/common';
import type { ScimTokenOwner } from './auth-provider.repository';

/**
 * SCIM tokens resolved in the last few seconds, so that a provider's burst of requests costs one
 * lookup. Changes to a provider in this process clear it at once; other processes (and a plan
 * change) are seen within TTL_MS, as with API tokens.
 */
@Injectable()
export class ScimTokenCache {
  static readonly TTL_MS = 5_000;
  private static readonly MAX_ENTRIES = 1_000;
  private readonly entries = new Map<string, { owner: ScimTokenOwner | undefined; expiresAt: number }>();
  private generation = 0;

  async getOrLoad(hash: string, load: () => Promise<ScimTokenOwner | undefined>): Promise<ScimTokenOwner | undefined> {
    const now = performance.now();
    const hit = this.entries.get(hash);
    if (hit && hit.expiresAt > now) return hit.owner;
    const generation = this.generation;
    const owner = await load();
    // Only tokens that exist are kept, so guessing cannot fill the cache.
    if (owner && generation === this.generation) {
      if (this.entries.size >= ScimTokenCache.MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { owner, expiresAt: now + ScimTokenCache.TTL_MS });
    }
    return owner;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
