export { eventHookPayload, microsecondIso, type EventHookPayload, type EventPayloadSource } from './event-payload';
export { classifyResponse, nextAttemptDelaySeconds, parseRetryAfter, type AttemptOutcome } from './retry-policy';
export * from './service-hook';
export { signBody, standardWebhookSignature, standardWebhooksSecret, verifySignature } from './signature';
