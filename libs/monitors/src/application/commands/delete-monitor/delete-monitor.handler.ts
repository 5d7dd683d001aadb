import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { MonitorsRepository } from '../../../infrastructure/monitors.repository';
import { DeleteMonitorCommand } from './delete-monitor.command';

@CommandHandler(DeleteMonitorCommand)
export class DeleteMonitorHandler implements ICommandHandler<DeleteMonitorCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
  ) {}

  async execute({ organizationId, monitorSlugOrId }: DeleteMonitorCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const monitor = await this.monitors.findBySlugOrId(tx, organizationId, monitorSlugOrId, true);
      if (!monitor) throw DomainError.notFound();
      await this.monitors.delete(tx, monitor.id);
    });
  }
}
