import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { ProjectDataPrivacy } from '@faultline/projects';
import { type DataScrubber, dataScrubber } from '../domain';

const CACHE_MS = 5_000;
const CACHED_PROJECTS = 10_000;

/**
 * Each project's data scrubber, compiled once per settings change: settings change rarely, so each
 * process re-reads them every few seconds (one read at a time per project), and at once when this
 * process changed them (`forgetProject`, `forgetAll`).
 */
@Injectable()
export class DataScrubbersCache {
  private readonly cache = new LRUCache<string, DataScrubber, Sql>({
    max: CACHED_PROJECTS,
    ttl: CACHE_MS,
    // A project gone since its event was accepted is scrubbed as a new project would be.
    fetchMethod: async (projectId, _stale, { context: sql }) => dataScrubber((await this.settings.effective(sql, projectId)) ?? PROJECT_DATA_PRIVACY_DEFAULTS),
    ignoreFetchAbort: true,
  });

  constructor(private readonly settings: ProjectDataPrivacy) {}

  scrubber(sql: Sql, projectId: string): Promise<DataScrubber> {
    return this.cache.forceFetch(projectId, { context: sql });
  }

  forgetProject(projectId: string): void {
    this.cache.delete(projectId);
  }

  forgetAll(): void {
    this.cache.clear();
  }
}
