import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { defineMonitor } from '../../../domain';
import { MonitorEnvironmentsRepository } from '../../../infrastructure/monitor-environments.repository';
import { type MonitorRow, MonitorsRepository } from '../../../infrastructure/monitors.repository';
import { UpdateMonitorCommand } from './update-monitor.command';

@CommandHandler(UpdateMonitorCommand)
export class UpdateMonitorHandler implements ICommandHandler<UpdateMonitorCommand, MonitorRow> {
  constructor(
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
    private readonly environments: MonitorEnvironmentsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, monitorSlugOrId, projectIdOrSlug, input }: UpdateMonitorCommand): Promise<MonitorRow> {
    const at = this.clock.now().toISOString();
    return this.database.transaction(async (tx) => {
      const current = await this.monitors.findBySlugOrId(tx, organizationId, monitorSlugOrId, true);
      if (!current) throw DomainError.notFound();
      const defined = defineMonitor(input, {
        name: current.name,
        slug: current.slug,
        status: current.status,
        isMuted: current.is_muted,
        config: current.config,
      });
      if ('problem' in defined) throw DomainError.invalid(defined.problem);
      let projectId = current.project_id;
      if (projectIdOrSlug !== undefined) {
        const project = typeof projectIdOrSlug === 'string' ? await this.monitors.project(tx, organizationId, projectIdOrSlug) : undefined;
        if (!project) throw DomainError.invalid(`project "${String(projectIdOrSlug)}" does not exist`);
        projectId = project.id;
      }
      const { name, slug, status, isMuted, config } = defined.ok;
      if (slug !== current.slug && (await this.monitors.find(tx, organizationId, slug))) throw DomainError.invalid(`The slug "${slug}" is already in use.`);
      const updated = (await this.monitors.update(tx, current.id, { slug, name, status, isMuted, config, projectId })) as MonitorRow;
      if (isMuted !== current.is_muted) {
        for (const environment of await this.monitors.lockEnvironmentsOf(tx, current.id)) {
          const { aggregate } = await this.environments.decide(tx, environment.id, (decided) => decided.mute(isMuted, at));
          await this.monitors.setEnvironmentState(tx, environment.id, { status: aggregate.status, isMuted: aggregate.isMuted });
        }
      }
      return updated;
    });
  }
}
