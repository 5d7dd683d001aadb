export { WebhooksModule } from './webhooks.module';
export { ServiceHookOutbox, type HookNotice } from './infrastructure/service-hook-outbox';
export { DeliveryWorker } from './infrastructure/delivery.worker';
export { DeliveryTargetKinds } from './infrastructure/delivery-target-kinds';
export type {
  DeliveryTarget,
  DeliveryTargetKind,
  HttpDeliveryTargetKind,
  OutgoingDelivery,
  SentAttempt,
  TargetAttemptOutcome,
  TransportDeliveryTargetKind,
} from './contracts/delivery-target-kind';
export { WebhookTargets, type QueuedDelivery } from './infrastructure/webhook-targets';
export type { DeliveryState, RequestLogFilter, RequestLogRow } from './infrastructure/deliveries.repository';
export {
  type AttemptOutcome,
  classifyResponse,
  SERVICE_HOOK_EVENTS,
  signBody,
  standardWebhooksSecret,
  verifySignature,
  WebhookEventTypes,
  type EventPayloadSource,
} from './domain';
export { describeError, OutboundHttp, RESPONSE_BODY_LIMIT, type OutboundResponse } from './infrastructure/outbound-http';
export { WEBHOOKS_PUBLISHED_VIEWS } from './contracts/published-views';
