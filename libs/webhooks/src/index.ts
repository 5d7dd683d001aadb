export { WebhooksModule } from './webhooks.module';
export { ServiceHookOutbox, type HookNotice } from './infrastructure/service-hook-outbox';
export { DeliveryWorker } from './infrastructure/delivery.worker';
export { SENTRY_APP_TARGET, WebhookTargets, type QueuedDelivery, type WebhookTarget } from './infrastructure/webhook-targets';
export type { RequestLogFilter, RequestLogRow } from './infrastructure/deliveries.repository';
export { SERVICE_HOOK_EVENTS, signBody, standardWebhooksSecret, verifySignature, WebhookEventTypes, type EventPayloadSource } from './domain';
export { describeError, OutboundHttp, RESPONSE_BODY_LIMIT, type OutboundResponse } from './infrastructure/outbound-http';
export { WEBHOOKS_PUBLISHED_VIEWS } from './contracts/published-views';
