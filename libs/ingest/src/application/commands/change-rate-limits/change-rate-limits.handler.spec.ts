import { DomainError, FixedClock } from '@faultline/kernel';
import type { Database } from '@faultline/platform';
import type { OrganizationLimitsCache } from '../../../infrastructure/organization-limits.cache';
import { rateLimitsConfig } from '../../../infrastructure/rate-limits-config';
import { DEFAULT_ORGANIZATION_RATE_LIMITS, type RateLimitsRepository } from '../../../infrastructure/rate-limits.repository';
import { ChangeRateLimitsCommand } from './change-rate-limits.command';
import { ChangeRateLimitsHandler } from './change-rate-limits.handler';

describe("changing an organization's rate limits", () => {
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const config = rateLimitsConfig({ ORG_QUOTA_ERRORS: '1000' });
  let changes: unknown[];
  let forgotten: string[];
  let handler: ChangeRateLimitsHandler;

  beforeEach(() => {
    changes = [];
    forgotten = [];
    const repository = {
      change: async (_sql: unknown, organizationId: string, change: unknown) => {
        changes.push([organizationId, change]);
        return DEFAULT_ORGANIZATION_RATE_LIMITS;
      },
      organization: async () => DEFAULT_ORGANIZATION_RATE_LIMITS,
    } as unknown as RateLimitsRepository;
    const cache = { forget: (id: string) => forgotten.push(id) } as unknown as OrganizationLimitsCache;
    handler = new ChangeRateLimitsHandler({} as Database, repository, cache, config, clock);
  });

  it("given an owner, when they lift the instance's quota, then it is refused and nothing changes", async () => {
    const refused = handler.execute(new ChangeRateLimitsCommand('7', { quotas: { error: 5000 } }, false));
    await expect(refused).rejects.toThrow(DomainError);
    await expect(refused).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('at most 1000') });
    expect(changes).toEqual([]);
    expect(forgotten).toEqual([]);
  });

  it("given an owner lowering the quota, or an instance administrator lifting it, then it is stored and this process's cache forgets the organization", async () => {
    await handler.execute(new ChangeRateLimitsCommand('7', { quotas: { error: 10 }, spikeProtection: false }, false));
    await handler.execute(new ChangeRateLimitsCommand('8', { quotas: { error: 5000 } }, true));
    expect(changes).toEqual([
      ['7', { quotas: { error: 10 }, spikeProtection: false }],
      ['8', { quotas: { error: 5000 } }],
    ]);
    expect(forgotten).toEqual(['7', '8']);
  });

  it('given a change of nothing (an empty body), then the limits are answered as they are and nothing is written', async () => {
    expect(await handler.execute(new ChangeRateLimitsCommand('7', { quotas: {} }, false))).toEqual(DEFAULT_ORGANIZATION_RATE_LIMITS);
    expect(await handler.execute(new ChangeRateLimitsCommand('7', {}, true))).toEqual(DEFAULT_ORGANIZATION_RATE_LIMITS);
    expect(changes).toEqual([]);
    expect(forgotten).toEqual([]);
  });
});
