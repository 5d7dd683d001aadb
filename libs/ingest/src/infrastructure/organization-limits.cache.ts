import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Database } from '@faultline/platform';
import { RATE_LIMITS_CONFIG, type RateLimitsConfig } from './rate-limits-config';
import { type OrganizationRateLimits, RateLimitsRepository } from './rate-limits.repository';

const CACHED_ORGANIZATIONS = 10_000;

/**
 * Organizations' rate-limit settings and spike state as the accept path reads them: kept briefly,
 * one lookup in flight per organization, so a burst costs one query per organization and TTL.
 * A change made in this process (settings, the spike worker) applies to it at once.
 */
@Injectable()
export class OrganizationLimitsCache {
  private readonly cache: LRUCache<string, OrganizationRateLimits>;

  constructor(database: Database, repository: RateLimitsRepository, @Inject(RATE_LIMITS_CONFIG) config: RateLimitsConfig) {
    this.cache = new LRUCache<string, OrganizationRateLimits>({
      max: CACHED_ORGANIZATIONS,
      ttl: config.cacheSeconds * 1000,
      fetchMethod: (organizationId) => repository.organization(database, organizationId),
      ignoreFetchAbort: true,
    });
  }

  async get(organizationId: string): Promise<OrganizationRateLimits> {
    return this.cache.forceFetch(organizationId);
  }

  forget(organizationId: string): void {
    this.cache.delete(organizationId);
  }
}
