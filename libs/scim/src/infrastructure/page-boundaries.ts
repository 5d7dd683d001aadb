import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/**
 * Where the pages of an organization's unfiltered user list begin, learnt from the pages read:
 * after a page of `count` users, the page at `startIndex + count` begins after its last id. An
 * identity provider importing every user reads the pages in order, and each page is then an
 * index range scan instead of skipping all the members before it (100,000 at the end of a large
 * organization).
 *
 * A boundary holds while no member has been removed from the organization (the `removals` counter
 * the database keeps); members added later get larger ids and so come after it. A member whose
 * id is smaller but whose transaction committed late can shift a page by one, as any change during
 * offset paging may (RFC 7644 §3.4.2.4); boundaries are kept for at most TTL_MS.
 */
@Injectable()
export class PageBoundaries {
  static readonly TTL_MS = 60_000;
  private static readonly MAX_ENTRIES = 10_000;
  private readonly entries = new LRUCache<string, { afterId: string; removals: string }>({ max: PageBoundaries.MAX_ENTRIES, ttl: PageBoundaries.TTL_MS });

  /** The id the page at `offset` begins after, when known and still true. */
  find(organizationId: string, offset: number, removals: string): string | undefined {
    const entry = this.entries.get(`${organizationId}:${offset}`);
    if (!entry || entry.removals !== removals) return undefined;
    return entry.afterId;
  }

  remember(organizationId: string, offset: number, removals: string, afterId: string): void {
    this.entries.set(`${organizationId}:${offset}`, { afterId, removals });
  }
}
