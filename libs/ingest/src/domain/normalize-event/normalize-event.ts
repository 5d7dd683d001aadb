import { normalizeNonNilEventId } from '@faultline/kernel';
import { EnvelopeError } from '../envelope-error';
import { normalizeEnvironment, normalizeLevel, normalizePlatform, normalizeRelease, normalizeTimestamp } from './attributes';
import { normalizeBreadcrumbs } from './breadcrumbs';
import { normalizeContexts } from './contexts';
import { normalizeDebugMeta } from './debug-meta';
import { normalizeExceptions } from './exception';
import { assign, field, isObject, str } from './fields';
import { normalizeFingerprint } from './fingerprint';
import { boundObject } from './json-bounds';
import { EVENT_LIMITS } from './limits';
import { normalizeMessage } from './message';
import { normalizeModules } from './modules';
import { normalizeRequest } from './request';
import { normalizeSdk } from './sdk';
import { normalizeSecurityReports } from './security-reports';
import { normalizeFrame, normalizeStacktrace } from './stacktrace';
import { normalizeTags } from './tags';
import { normalizeThreads } from './threads';
import { nameEvent } from './title-and-culprit';
import type { NormalizeContext, NormalizedEvent } from './types';
import { normalizeUser } from './user';
import { contextsFromUserAgent, withContextTags } from './user-agent';

/**
 * Turns an SDK event payload (store endpoint body or envelope `event` item), as `parseStorableJson`
 * reads it, into one strict shape.
 * SDKs of every age and language send it, so wrong-typed fields are ignored rather than refused,
 * and every string and collection is bounded so one event cannot bloat storage.
 *
 * Passes, in order: each interface is read and bounded (one file per interface), the User-Agent
 * fills the contexts the SDK did not send and the contexts add their tags, then the event is
 * named (title, culprit). A pass that rewrites what was read (data scrubbing) goes between the two,
 * so that the title and culprit are derived from what is kept.
 */
export function normalizeEvent(raw: unknown, context: NormalizeContext): NormalizedEvent {
  if (!isObject(raw)) throw new EnvelopeError('event payload must be a JSON object');
  const event = readInterfaces(raw, context);
  return nameEvent(event, str(raw.culprit));
}

function readInterfaces(raw: Record<string, unknown>, context: NormalizeContext): NormalizedEvent {
  const receivedAt = context.receivedAt;
  const { message, template, params } = normalizeMessage(raw);
  const event: NormalizedEvent = {
    eventId: normalizeNonNilEventId(raw.event_id) ?? normalizeNonNilEventId(context.eventId) ?? context.newEventId,
    timestamp: normalizeTimestamp(raw.timestamp, receivedAt),
    receivedAt: receivedAt.toISOString(),
    level: normalizeLevel(raw.level),
    platform: normalizePlatform(raw.platform) ?? normalizePlatform(context.platformFallback) ?? 'other',
    exceptions: normalizeExceptions(field(raw, 'exception', 'sentry.interfaces.Exception')),
    tags: normalizeTags(raw.tags),
    environment: normalizeEnvironment(raw.environment) ?? 'production',
    culprit: '',
    title: '',
  };

  assign(event, 'logger', str(raw.logger, EVENT_LIMITS.shortField));
  assign(event, 'message', message);
  assign(event, 'messageTemplate', template);
  assign(event, 'messageParams', params);
  assign(event, 'stacktrace', normalizeStacktrace(field(raw, 'stacktrace', 'sentry.interfaces.Stacktrace')));
  assign(event, 'threads', normalizeThreads(raw.threads));
  assign(event, 'breadcrumbs', normalizeBreadcrumbs(field(raw, 'breadcrumbs', 'sentry.interfaces.Breadcrumbs')));
  assign(event, 'user', normalizeUser(field(raw, 'user', 'sentry.interfaces.User'), context.clientIp));
  assign(event, 'release', normalizeRelease(raw.release));
  assign(event, 'dist', str(raw.dist, EVENT_LIMITS.shortField));
  assign(event, 'serverName', str(raw.server_name, EVENT_LIMITS.field));
  assign(event, 'transaction', str(raw.transaction, EVENT_LIMITS.culprit));
  assign(event, 'request', normalizeRequest(field(raw, 'request', 'sentry.interfaces.Http')));
  assign(event, 'contexts', contextsFromUserAgent(normalizeContexts(raw.contexts), event.request));
  event.tags = withContextTags(event.tags, event.contexts);
  assign(event, 'sdk', normalizeSdk(raw.sdk));
  assign(event, 'fingerprint', normalizeFingerprint(raw.fingerprint));
  assign(event, 'extra', isObject(raw.extra) ? boundObject(raw.extra) : undefined);
  assign(event, 'modules', normalizeModules(raw.modules));
  const rawTemplate = field(raw, 'template', 'sentry.interfaces.Template');
  assign(event, 'template', isObject(rawTemplate) ? normalizeFrame(rawTemplate) : undefined);
  assign(event, 'debugMeta', normalizeDebugMeta(raw.debug_meta));
  assign(event, 'securityReports', normalizeSecurityReports(raw));
  return event;
}
