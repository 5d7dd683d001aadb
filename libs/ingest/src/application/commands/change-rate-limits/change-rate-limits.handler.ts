import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { refusedQuotaChange } from '../../../domain';
import { OrganizationLimitsCache } from '../../../infrastructure/organization-limits.cache';
import { RATE_LIMITS_CONFIG, type RateLimitsConfig } from '../../../infrastructure/rate-limits-config';
import { type OrganizationRateLimits, RateLimitsRepository } from '../../../infrastructure/rate-limits.repository';
import { ChangeRateLimitsCommand } from './change-rate-limits.command';

@CommandHandler(ChangeRateLimitsCommand)
export class ChangeRateLimitsHandler implements ICommandHandler<ChangeRateLimitsCommand, OrganizationRateLimits> {
  constructor(
    private readonly database: Database,
    private readonly repository: RateLimitsRepository,
    private readonly cache: OrganizationLimitsCache,
    @Inject(RATE_LIMITS_CONFIG) private readonly config: RateLimitsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: ChangeRateLimitsCommand): Promise<OrganizationRateLimits> {
    const refused = refusedQuotaChange(command.change.quotas ?? {}, this.config.organizationQuotas, command.instanceAdministrator);
    if (refused) throw new DomainError('invalid', refused);
    // Nothing to change (an empty body): answered as they are, with nothing written.
    if (command.change.spikeProtection === undefined && Object.keys(command.change.quotas ?? {}).length === 0) {
      return this.repository.organization(this.database, command.organizationId);
    }
    const changed = await this.repository.change(this.database, command.organizationId, command.change, this.clock.now());
    this.cache.forget(command.organizationId);
    return changed;
  }
}
