import { Injectable } from '@nestjs/common';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * A short-lived cache of resolved tokens and organization access, so an authenticated read costs
 * one query instead of three. Changes made in this process clear it at once; other processes see
 * them within TTL_MS.
 */
@Injectable()
export class AuthCache {
  static readonly TTL_MS = 5_000;
  private static readonly MAX_ENTRIES = 10_000;
  private readonly entries = new Map<string, Entry<unknown>>();

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as T;
    const value = await load();
    if (this.entries.size >= AuthCache.MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, expiresAt: now + AuthCache.TTL_MS });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
