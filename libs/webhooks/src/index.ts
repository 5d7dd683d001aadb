export { WebhooksModule } from './webhooks.module';
export { ServiceHookOutbox, type HookNotice } from './infrastructure/service-hook-outbox';
export { DeliveryWorker } from './infrastructure/delivery.worker';
export { SERVICE_HOOK_EVENTS, standardWebhooksSecret, verifySignature, WebhookEventTypes, type EventPayloadSource } from './domain';
