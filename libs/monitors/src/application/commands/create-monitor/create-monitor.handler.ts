import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, newUuid } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { defineMonitor } from '../../../domain';
import { MONITORS_CONFIG, type MonitorsConfig } from '../../../infrastructure/monitors-config';
import { type MonitorRow, MonitorsRepository } from '../../../infrastructure/monitors.repository';
import { CreateMonitorCommand } from './create-monitor.command';

@CommandHandler(CreateMonitorCommand)
export class CreateMonitorHandler implements ICommandHandler<CreateMonitorCommand, MonitorRow> {
  constructor(
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
    @Inject(MONITORS_CONFIG) private readonly config: MonitorsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, projectIdOrSlug, input }: CreateMonitorCommand): Promise<MonitorRow> {
    const defined = defineMonitor(input);
    if ('problem' in defined) throw DomainError.invalid(defined.problem);
    if (typeof projectIdOrSlug !== 'string' || projectIdOrSlug === '') throw DomainError.invalid('project is required');
    const at = this.clock.now();
    const guid = newUuid();
    return this.database.transaction(async (tx) => {
      const project = await this.monitors.project(tx, organizationId, projectIdOrSlug);
      if (!project) throw DomainError.invalid(`project "${projectIdOrSlug}" does not exist`);
      await this.monitors.lockOrganization(tx, organizationId);
      if ((await this.monitors.count(tx, organizationId)) >= this.config.monitorsPerOrganization)
        throw DomainError.forbidden(`The organization has its ${this.config.monitorsPerOrganization} monitors (MONITORS_PER_ORGANIZATION)`);
      const { name, slug, status, isMuted, config } = defined.ok;
      const row = await this.monitors.insert(tx, { guid, organizationId, projectId: project.id, slug, name, status, isMuted, config, at });
      if (!row) throw DomainError.invalid(`The slug "${slug}" is already in use.`);
      return row;
    });
  }
}
