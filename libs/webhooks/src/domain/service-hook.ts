import { domainEvent } from '@faultline/kernel';

export const SERVICE_HOOK_EVENTS = ['event.alert', 'event.created'] as const;
export type ServiceHookEvent = (typeof SERVICE_HOOK_EVENTS)[number];
export type ServiceHookStatus = 'active' | 'disabled';

/** The feature a project needs for service hooks. */
export const SERVICE_HOOKS_FEATURE = 'servicehooks';

/** Checks and normalises a hook's event list (sorted, without duplicates); answers the error, if any. */
export function normaliseHookEvents(events: readonly string[]): { events: ServiceHookEvent[] } | { error: string } {
  if (events.length === 0) return { error: 'events must name at least one of event.alert, event.created' };
  const unknown = events.find((event) => !(SERVICE_HOOK_EVENTS as readonly string[]).includes(event));
  if (unknown !== undefined) return { error: `Invalid event name: ${unknown}` };
  return { events: [...new Set(events as ServiceHookEvent[])].sort() };
}

/** Only absolute http(s) URLs with a host, without credentials. */
export function hookUrlError(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url must be an absolute http(s) URL';
  if (!parsed.hostname) return 'url must name a host';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  return undefined;
}

export const WebhookEventTypes = {
  ServiceHookCreated: 'webhooks.ServiceHookCreated',
  ServiceHookUpdated: 'webhooks.ServiceHookUpdated',
  ServiceHookDeleted: 'webhooks.ServiceHookDeleted',
  ServiceHookDisabled: 'webhooks.ServiceHookDisabled',
} as const;

export const SERVICE_HOOK_STREAM_TYPE = 'service-hook';
export const serviceHookStream = (hookId: string): string => `service-hook-${hookId}`;

export const serviceHookCreated = (data: { hookId: string; projectId: string; url: string; events: string[]; actorId: string | null }) =>
  domainEvent(WebhookEventTypes.ServiceHookCreated, data);
export const serviceHookUpdated = (data: { hookId: string; changes: Record<string, unknown>; actorId: string | null }) =>
  domainEvent(WebhookEventTypes.ServiceHookUpdated, data);
export const serviceHookDeleted = (data: { hookId: string; actorId: string | null }) => domainEvent(WebhookEventTypes.ServiceHookDeleted, data);
/** The delivery engine turned the hook off: the receiver said 410 Gone, or failed every attempt for too long. */
export const serviceHookDisabled = (data: { hookId: string; reason: string }) => domainEvent(WebhookEventTypes.ServiceHookDisabled, data);
