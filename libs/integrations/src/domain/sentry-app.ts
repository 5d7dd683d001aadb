import { DomainError, isScope, type Scope } from '@faultline/kernel';

/** Resource categories an app subscribes to; installation (and alerts, when alertable) follow from its setup. */
export const SUBSCRIBABLE_RESOURCES = ['issue', 'error', 'comment'] as const;
export type SubscribableResource = (typeof SUBSCRIBABLE_RESOURCES)[number];

/** Every webhook resource Faultline sends to apps. */
export const APP_WEBHOOK_RESOURCES = ['issue', 'error', 'comment', 'installation', 'event_alert', 'metric_alert'] as const;
export type AppWebhookResource = (typeof APP_WEBHOOK_RESOURCES)[number];

/** Sentry's publication states (`publish_request_inprogress` is its name for "awaiting approval"). */
export type SentryAppStatus = 'unpublished' | 'publish_request_inprogress' | 'published' | 'internal';

/** UI component types an app's schema may declare. */
const SCHEMA_ELEMENT_TYPES = new Set(['issue-link', 'alert-rule-action', 'issue-media', 'stacktrace-link']);

export function validateEvents(events: readonly string[]): SubscribableResource[] {
  const unknown = events.filter((event) => !(SUBSCRIBABLE_RESOURCES as readonly string[]).includes(event));
  if (unknown.length) throw DomainError.invalid(`Invalid event: ${unknown.join(', ')}`, { errors: { events: [`Invalid event: ${unknown.join(', ')}`] } });
  return [...new Set(events)].sort() as SubscribableResource[];
}

export function validateScopes(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw DomainError.invalid(`Unknown scope: ${unknown.join(', ')}`, { errors: { scopes: [`Unknown scope: ${unknown.join(', ')}`] } });
  return [...new Set(scopes)].sort() as Scope[];
}

/**
 * The events an app's webhooks need the app to be able to read, as Sentry requires: an issue or
 * error subscription needs event:read, a comment subscription event:read too.
 */
export function checkEventsAllowed(events: readonly SubscribableResource[], scopes: ReadonlySet<string>): void {
  if (events.length > 0 && !['event:read', 'event:write', 'event:admin'].some((scope) => scopes.has(scope))) {
    throw DomainError.invalid('Resource subscriptions require the event:read permission', {
      errors: { events: [`${events.join(', ')} webhooks require the event:read permission.`] },
    });
  }
}

export interface SchemaElement {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** `schema: {elements: [...]}`: each element a known UI component type. */
export function validateSchema(schema: unknown): { elements: SchemaElement[] } {
  if (schema === undefined || schema === null) return { elements: [] };
  if (typeof schema !== 'object' || Array.isArray(schema)) throw invalidSchema('schema must be an object');
  const elements = (schema as { elements?: unknown }).elements ?? [];
  if (!Array.isArray(elements)) throw invalidSchema('schema.elements must be a list');
  for (const element of elements) {
    if (!element || typeof element !== 'object' || !SCHEMA_ELEMENT_TYPES.has(String((element as SchemaElement).type))) {
      throw invalidSchema(`schema.elements: each element needs a type among ${[...SCHEMA_ELEMENT_TYPES].join(', ')}`);
    }
  }
  return { ...(schema as object), elements: elements as SchemaElement[] };
}

function invalidSchema(message: string): DomainError {
  return DomainError.invalid(message, { errors: { schema: [message] } });
}

/** Which organizations may install an app: its own always; others once it is published. */
export function mayInstall(app: { status: SentryAppStatus; ownerOrganizationId: string }, organizationId: string): boolean {
  if (app.ownerOrganizationId === organizationId) return true;
  return app.status === 'published';
}

/** Whether an app receives webhooks of `resource`. */
export function subscribesTo(app: { events: readonly string[]; isAlertable: boolean }, resource: AppWebhookResource): boolean {
  if (resource === 'installation') return true;
  if (resource === 'event_alert' || resource === 'metric_alert') return app.isAlertable;
  return app.events.includes(resource);
}
