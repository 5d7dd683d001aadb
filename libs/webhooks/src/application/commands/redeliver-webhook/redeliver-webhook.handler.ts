import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { DeliveriesRepository } from '../../../infrastructure/deliveries.repository';
import { DeliveryWorker } from '../../../infrastructure/delivery.worker';
import { SERVICE_HOOK_TARGET, ServiceHooksRepository } from '../../../infrastructure/service-hooks.repository';
import { RedeliverWebhookCommand } from './redeliver-webhook.command';

@CommandHandler(RedeliverWebhookCommand)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly hooks: ServiceHooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {}

  async execute({ projectId, hookId, deliveryGuid }: RedeliverWebhookCommand): Promise<string> {
    return this.database.transaction(async (tx) => {
      const hook = await this.hooks.find(tx, projectId, hookId);
      if (!hook) throw DomainError.notFound();
      if (hook.status !== 'active') throw DomainError.invalid('The hook is disabled; enable it before redelivering');
      const delivery = await this.deliveries.find(tx, SERVICE_HOOK_TARGET, hookId, deliveryGuid);
      if (!delivery) throw DomainError.notFound();
      await this.deliveries.redeliver(tx, delivery.id);
      tx.afterCommit(() => this.worker.wake());
      return delivery.guid;
    });
  }
}
