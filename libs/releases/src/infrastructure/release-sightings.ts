import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { type ReleaseSighting, ReleasesRepository } from './releases.repository';

/** An event the ingest path stored, as far as its release's counts care. */
export interface ReleaseEventSeen {
  organizationId: string;
  projectId: string;
  release: string;
  /** ISO time the event occurred. */
  occurredAt: string;
  isNewIssue: boolean;
}

/**
 * Releases named by events are created on first sight, as Sentry does, and their per-project
 * counts (events, new issues, first and last event) kept, in the ingest batch's transaction:
 * two statements per batch for all its distinct releases.
 */
@Injectable()
export class ReleaseSightings {
  constructor(
    private readonly releases: ReleasesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(tx: Sql, events: readonly ReleaseEventSeen[]): Promise<void> {
    const byKey = new Map<string, ReleaseSighting>();
    for (const event of events) {
      const key = JSON.stringify([event.organizationId, event.projectId, event.release]);
      const seen = byKey.get(key);
      if (seen) {
        seen.events += 1;
        seen.newGroups += event.isNewIssue ? 1 : 0;
        if (event.occurredAt < seen.firstEvent) seen.firstEvent = event.occurredAt;
        if (event.occurredAt > seen.lastEvent) seen.lastEvent = event.occurredAt;
      } else {
        byKey.set(key, {
          organizationId: event.organizationId,
          projectId: event.projectId,
          version: event.release,
          events: 1,
          newGroups: event.isNewIssue ? 1 : 0,
          firstEvent: event.occurredAt,
          lastEvent: event.occurredAt,
        });
      }
    }
    await this.releases.recordSightings(tx, [...byKey.values()], this.clock.now());
  }
}
