import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { type ReleaseEventSeen, ReleaseSightings } from '../contracts/release-sightings';
import { type ReleaseSighting, ReleasesRepository } from './releases.repository';

/** Folds a batch's events by release, then writes them in two statements for all its distinct releases. */
@Injectable()
export class ReleaseSightingsService extends ReleaseSightings {
  constructor(
    private readonly releases: ReleasesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

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
