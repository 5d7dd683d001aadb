import type { QuotaCategory } from '../../../domain';

/** Changes an organization's own rate limits: spike protection on or off, quotas per category (null removes one). */
export class ChangeRateLimitsCommand {
  constructor(
    readonly organizationId: string,
    readonly change: { readonly spikeProtection?: boolean; readonly quotas?: Partial<Record<QuotaCategory, number | null>> },
    readonly instanceAdministrator: boolean,
  ) {}
}
