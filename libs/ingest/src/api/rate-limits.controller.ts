import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '@faultline/kernel';
import { CurrentOrganization, CurrentPrincipal, type OrganizationAccess, type Principal, RequireScopes } from '@faultline/platform';
import { ChangeRateLimitsCommand } from '../application/commands/change-rate-limits/change-rate-limits.command';
import { QUOTA_CATEGORIES } from '../domain';
import { OrganizationLimitsCache } from '../infrastructure/organization-limits.cache';
import { RATE_LIMITS_CONFIG, type RateLimitsConfig } from '../infrastructure/rate-limits-config';
import type { OrganizationRateLimits } from '../infrastructure/rate-limits.repository';
import { UpdateRateLimitsDto } from './rate-limits.dto';

/** An organization's rate limits: its quotas per category (the instance's and its own), and spike protection with the spike in progress. */
@ApiTags('Rate limits')
@ApiBearerAuth()
@Controller('api/0')
export class RateLimitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cache: OrganizationLimitsCache,
    @Inject(RATE_LIMITS_CONFIG) private readonly config: RateLimitsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('organizations/:organization_id_or_slug/rate-limits')
  @RequireScopes('org:read')
  async show(@CurrentOrganization() organization: OrganizationAccess) {
    return this.serialize(await this.cache.get(organization.id));
  }

  @Put('organizations/:organization_id_or_slug/rate-limits')
  @RequireScopes('org:admin')
  async change(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: UpdateRateLimitsDto) {
    const changed = await this.commands.execute<ChangeRateLimitsCommand, OrganizationRateLimits>(
      new ChangeRateLimitsCommand(organization.id, { spikeProtection: body.spikeProtection, quotas: body.quotas && { ...body.quotas } }, principal.isSuperuser),
    );
    return this.serialize(changed);
  }

  private serialize(limits: OrganizationRateLimits) {
    const now = this.clock.now();
    const active = limits.spikeProtection && limits.spike.limitedUntil !== null && limits.spike.limitedUntil > now;
    return {
      window: this.config.organizationWindowSeconds,
      quotas: QUOTA_CATEGORIES.map((category) => {
        const own = limits.quotas[category] ?? null;
        const instance = this.config.organizationQuotas[category] ?? null;
        return { category, limit: own ?? instance, organizationLimit: own, instanceLimit: instance };
      }),
      spikeProtection: {
        enabled: limits.spikeProtection,
        threshold: limits.spikeThreshold,
        active,
        startedAt: limits.spike.startedAt?.toISOString() ?? null,
        limitedUntil: active ? (limits.spike.limitedUntil?.toISOString() ?? null) : null,
      },
    };
  }
}
