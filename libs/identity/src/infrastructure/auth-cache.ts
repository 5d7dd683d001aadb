import { Injectable } from '@nestjs/common';

interface Entry<T> {
  value: T;
  expiresAt: number;
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
  private readonly entries = new Map<string, Entry<unknown>>();
  private readonly loading = new Map<string, Promise<unknown>>();
  private generation = 0;

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expiresAt > now) return hit.value as T;
    const pending = this.loading.get(key);
    if (pending !== undefined) return pending as Promise<T>;
    const generation = this.generation;
    const loaded = load().then(
      (value) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        if (generation === this.generation) {
          if (this.entries.size >= AuthCache.MAX_ENTRIES) this.entries.clear();
          this.entries.set(key, { value, expiresAt: now + AuthCache.TTL_MS });
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}
