import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { SERVICE_HOOK_STREAM_TYPE, serviceHookDeleted, serviceHookStream } from '../../../domain';
import { DeliveriesRepository } from '../../../infrastructure/deliveries.repository';
import { SERVICE_HOOK_TARGET, ServiceHooksRepository } from '../../../infrastructure/service-hooks.repository';
import { DeleteServiceHookCommand } from './delete-service-hook.command';

@CommandHandler(DeleteServiceHookCommand)
export class DeleteServiceHookHandler implements ICommandHandler<DeleteServiceHookCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly hooks: ServiceHooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ projectId, hookId, actorId }: DeleteServiceHookCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const hook = await this.hooks.find(tx, projectId, hookId, { lock: true });
      if (!hook) throw DomainError.notFound();
      await this.hooks.delete(tx, hookId);
      await this.deliveries.deleteForTarget(tx, SERVICE_HOOK_TARGET, hookId);
      await this.recorder.record(tx, serviceHookStream(hookId), SERVICE_HOOK_STREAM_TYPE, [serviceHookDeleted({ hookId, actorId })]);
    });
  }
}
