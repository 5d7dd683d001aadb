export { WebhooksModule } from './webhooks.module';
export { ServiceHookOutbox, type HookNotice } from './contracts/service-hook-outbox';
export { DeliveryTargetKindRegistry } from './contracts/delivery-target-kind-registry';
export type {
  DeliveryTarget,
  DeliveryTargetKind,
  HttpDeliveryTargetKind,
  OutgoingDelivery,
  SentAttempt,
  TargetAttemptOutcome,
  TransportDeliveryTargetKind,
} from './contracts/delivery-target-kind';
export { WebhookTargets, type DeliveryState, type QueuedDelivery, type RequestLogFilter, type RequestLogRow } from './contracts/webhook-targets';
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
export { OutboundHttpClients, type OutboundClient, type OutboundResponse } from '@faultline/platform';
export { WEBHOOKS_PUBLISHED_VIEWS } from './contracts/published-views';
