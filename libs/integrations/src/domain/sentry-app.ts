import { DomainError, expandScopes, grantableScopes, type Scope, scopesWithin } from '@faultline/kernel';

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

/**
 * The scopes an app may have: only what the caller defining it may hand on (scopes the app already
 * has may stay, as in Sentry, so a narrower manager can still edit it). A published app may narrow
 * but not widen: its installations granted what it had, and a wider app needs their consent again.
 */
export function appScopes(
  requested: readonly string[],
  holderScopes: ReadonlySet<Scope>,
  current: { readonly scopes: readonly string[]; readonly status: SentryAppStatus } | null = null,
): Scope[] {
  const scopes = grantableScopes(requested, new Set([...holderScopes, ...expandScopes(current?.scopes ?? [])]));
  if (current?.status === 'published' && !scopesWithin(scopes, current.scopes)) {
    throw DomainError.invalid('Cannot update permissions on a published integration.', {
      errors: { scopes: ['Cannot update permissions on a published integration.'] },
    });
  }
  return scopes;
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

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the delivery engine sets itself, which custom headers may not replace. */
const RESERVED_HEADERS = /^(content-type|content-length|host|connection|transfer-encoding|user-agent|request-id|.+-hook-(resource|timestamp|signature))$/i;

/** `webhookHeaders`: "Name: value" entries sent with every webhook request. */
export function validateWebhookHeaders(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const separator = entry.indexOf(':');
    const name = separator > 0 ? entry.slice(0, separator).trim() : '';
    const value = separator > 0 ? entry.slice(separator + 1).trim() : '';
    const problem =
      !HEADER_NAME.test(name) || /[\r\n]/.test(value)
        ? `"${entry}" is not a "Name: value" header`
        : RESERVED_HEADERS.test(name)
          ? `${name} is set by the service and cannot be overridden`
          : null;
    if (problem) throw DomainError.invalid(`webhookHeaders: ${problem}`, { errors: { webhookHeaders: [problem] } });
    return `${name}: ${value}`;
  });
}

/** A hidden value, as Sentry shows a hidden client secret. */
export const MASKED_VALUE = '**********';

const headerName = (entry: string): string => entry.slice(0, entry.indexOf(':'));

/** Custom headers often carry the receiver's credentials: their names show, their values are hidden. */
export function maskWebhookHeaders(entries: readonly string[]): string[] {
  return entries.map((entry) => `${headerName(entry)}: ${MASKED_VALUE}`);
}

/**
 * Validated headers for an update: a masked value stands for the value the app has under that name,
 * so writing back what a masked read answered keeps the credential instead of replacing it.
 */
export function webhookHeadersUpdate(entries: readonly string[], current: readonly string[]): string[] {
  const currentByName = new Map(current.map((entry) => [headerName(entry).toLowerCase(), entry]));
  return validateWebhookHeaders(entries).map((entry) => {
    const kept = entry.endsWith(`: ${MASKED_VALUE}`) ? currentByName.get(headerName(entry).toLowerCase()) : undefined;
    return kept ?? entry;
  });
}

/** Every webhook event type an app can receive. */
export const APP_WEBHOOK_EVENT_TYPES = [
  'installation.created',
  'installation.deleted',
  'issue.created',
  'issue.resolved',
  'issue.ignored',
  'issue.assigned',
  'issue.unresolved',
  'error.created',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'event_alert.triggered',
  'metric_alert.critical',
  'metric_alert.warning',
  'metric_alert.resolved',
  'metric_alert.open',
] as const;

/** The webhook events a resource subscription stands for, as Sentry lists them (`webhookEvents`). */
export function webhookEventsOf(events: readonly string[]): string[] {
  const actions: Record<string, string[]> = {
    issue: ['issue.assigned', 'issue.created', 'issue.ignored', 'issue.resolved', 'issue.unresolved'],
    error: ['error.created'],
    comment: ['comment.created', 'comment.deleted', 'comment.updated'],
  };
  return events.flatMap((event) => actions[event] ?? []).sort();
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

/** Every `uri` the app's UI components declare: the only paths the service calls on the app's behalf. */
export function declaredUris(schema: unknown): Set<string> {
  const uris = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'uri' && typeof inner === 'string') uris.add(inner);
        else visit(inner);
      }
    }
  };
  visit(schema);
  return uris;
}

/** The component types an app's schema declares. */
export function componentTypes(schema: { elements?: ReadonlyArray<{ type: string }> }): Set<string> {
  return new Set((schema.elements ?? []).map((element) => element.type));
}

/** A component URI resolved against the app's webhook URL origin, as Sentry resolves it. */
export function componentUrl(webhookUrl: string, uri: string): string {
  if (!uri.startsWith('/') || uri.startsWith('//')) throw DomainError.invalid('uri must be a path on the app (starting with /)');
  return `${new URL(webhookUrl).origin}${uri}`;
}

/**
 * A select field's options as the app answers them (`[{label, value, default?}]`), in the shape
 * Sentry's forms take: `{choices: [[value, label], ...], defaultValue?}`.
 */
export function selectOptions(answer: unknown): { choices: Array<[unknown, unknown]>; defaultValue?: unknown } {
  if (!Array.isArray(answer)) throw DomainError.invalid('The app answered options that are not a list.');
  const choices: Array<[unknown, unknown]> = [];
  let defaultValue: unknown;
  for (const option of answer) {
    if (!option || typeof option !== 'object' || !('value' in option) || !('label' in option))
      throw DomainError.invalid('The app answered an option without label and value.');
    const { label, value } = option as { label: unknown; value: unknown; default?: unknown };
    choices.push([value, label]);
    if ((option as { default?: unknown }).default === true) defaultValue = value;
  }
  return defaultValue === undefined ? { choices } : { choices, defaultValue };
}

/** The ticket an app answers after creating or linking it: `{webUrl, project, identifier}`. */
export function linkedTicket(answer: unknown): { webUrl: string; project: string; identifier: string } {
  const ticket = answer as Record<string, unknown> | null;
  const text = (key: string) =>
    ticket && typeof ticket[key] === 'string' && (ticket[key] as string).length > 0 && (ticket[key] as string).length <= 2048 ? (ticket[key] as string) : null;
  const webUrl = text('webUrl');
  const project = text('project');
  const identifier = text('identifier');
  if (!webUrl || !/^https?:\/\//i.test(webUrl) || !project || !identifier) {
    throw DomainError.invalid('The app did not answer the issue it linked: expected {webUrl, project, identifier}.');
  }
  return { webUrl, project, identifier };
}
