import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { WorkerHost } from '@faultline/platform';
import { ServiceHooksController } from './api/service-hooks.controller';
import { CreateServiceHookHandler } from './application/commands/create-service-hook/create-service-hook.handler';
import { DeleteServiceHookHandler } from './application/commands/delete-service-hook/delete-service-hook.handler';
import { RedeliverWebhookHandler } from './application/commands/redeliver-webhook/redeliver-webhook.handler';
import { UpdateServiceHookHandler } from './application/commands/update-service-hook/update-service-hook.handler';
import { DeliveryTargetKindRegistry } from './contracts/delivery-target-kind-registry';
import { OutboundHttpClients } from './contracts/outbound-http';
import { TenantHttpClients } from '@faultline/identity';
import { ServiceHookOutbox } from './contracts/service-hook-outbox';
import { WebhookTargets } from './contracts/webhook-targets';
import { DeliveriesRepository } from './infrastructure/deliveries.repository';
import { DeliveryTargetKinds } from './infrastructure/delivery-target-kinds';
import { DeliveryWorker } from './infrastructure/delivery.worker';
import { PolicyOutboundHttpClients } from './infrastructure/outbound-http';
import { ServiceHookOutboxService } from './infrastructure/service-hook-outbox';
import { ServiceHookTargetKind } from './infrastructure/service-hook-target-kind';
import { ServiceHooksRepository } from './infrastructure/service-hooks.repository';
import { WebhookTargetsService } from './infrastructure/webhook-targets';

/** Service hooks and the one delivery engine every outgoing webhook goes through; each target kind registers its policy in DeliveryTargetKindRegistry. */
@Module({
  imports: [CqrsModule, EventStoreModule],
  controllers: [ServiceHooksController],
  providers: [
    ServiceHooksRepository,
    DeliveriesRepository,
    DeliveryWorker,
    DeliveryTargetKinds,
    { provide: DeliveryTargetKindRegistry, useExisting: DeliveryTargetKinds },
    ServiceHookTargetKind,
    ServiceHookOutboxService,
    { provide: ServiceHookOutbox, useExisting: ServiceHookOutboxService },
    WebhookTargetsService,
    { provide: WebhookTargets, useExisting: WebhookTargetsService },
    { provide: OutboundHttpClients, useClass: PolicyOutboundHttpClients },
    { provide: TenantHttpClients, useExisting: OutboundHttpClients },
    CreateServiceHookHandler,
    UpdateServiceHookHandler,
    DeleteServiceHookHandler,
    RedeliverWebhookHandler,
  ],
  exports: [ServiceHookOutbox, DeliveryTargetKindRegistry, WebhookTargets, OutboundHttpClients],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly workers: WorkerHost,
    private readonly worker: DeliveryWorker,
    private readonly recorder: EventRecorder,
    private readonly outbox: ServiceHookOutboxService,
    private readonly kinds: DeliveryTargetKinds,
    private readonly serviceHooks: ServiceHookTargetKind,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this.serviceHooks);
    this.workers.register(this.worker);
    this.recorder.onAppended(this.outbox.onAppended);
  }
}
