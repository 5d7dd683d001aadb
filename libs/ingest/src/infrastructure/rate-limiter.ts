import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@faultline/platform';
import type { ProjectKeyAccess } from '@faultline/projects';
import { decideRateLimits, KEY_QUOTA_CATEGORIES, type Quota, type QuotaCategory, type RateLimit } from '../domain';
import { OrganizationLimitsCache } from './organization-limits.cache';
import { RATE_LIMITS_CONFIG, type RateLimitsConfig } from './rate-limits-config';
import { RateLimitsRepository, type WindowQuantities } from './rate-limits.repository';

/**
 * The rate limits of one envelope: the quotas in force for its key and organization, its counts in
 * their windows (one statement, only when a quota covers a category it carries), and the spike
 * state read from the cache; the decision is the domain's.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly database: Database,
    private readonly repository: RateLimitsRepository,
    private readonly organizations: OrganizationLimitsCache,
    @Inject(RATE_LIMITS_CONFIG) private readonly config: RateLimitsConfig,
  ) {}

  async limits(key: ProjectKeyAccess, quantities: Partial<Record<QuotaCategory, number>>, now: Date): Promise<RateLimit[]> {
    const sent = (Object.entries(quantities) as Array<[QuotaCategory, number]>).filter(([, quantity]) => quantity > 0);
    if (sent.length === 0) return [];
    const organization = await this.organizations.get(key.organizationId);
    const quotas: Quota[] = [];
    if (key.rateLimit) {
      for (const category of KEY_QUOTA_CATEGORIES) quotas.push({ scope: 'key', category, limit: key.rateLimit.count });
    }
    for (const [category, limit] of Object.entries({ ...this.config.organizationQuotas, ...organization.quotas }) as Array<[QuotaCategory, number]>) {
      if (limit > 0) quotas.push({ scope: 'organization', category, limit });
    }
    const side = (scope: Quota['scope'], id: string, windowSeconds: number): WindowQuantities | null => {
      const covered = sent.filter(([category]) => quotas.some((quota) => quota.scope === scope && quota.category === category));
      return covered.length === 0 ? null : { id, windowSeconds, quantities: covered.map(([category, quantity]) => ({ category, quantity })) };
    };
    const counts = await this.repository.count(
      this.database,
      {
        key: key.rateLimit ? side('key', key.keyId, key.rateLimit.windowSeconds) : null,
        organization: side('organization', key.organizationId, this.config.organizationWindowSeconds),
      },
      now,
    );
    return decideRateLimits({ quantities, quotas, counts, spikeLimitedUntil: organization.spikeProtection ? organization.spike.limitedUntil : null, now });
  }
}
