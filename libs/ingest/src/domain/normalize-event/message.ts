import { EVENT_LIMITS } from './limits';
import { isObject, nonEmpty, truncate } from './fields';
import { boundJson, safeStringify } from './json-bounds';
import type { JsonValue } from './types';

interface MessageParts {
  message?: string;
  template?: string;
  params?: JsonValue;
}

export function normalizeMessage(raw: Record<string, unknown>): MessageParts {
  // `logentry` is the interface; `message` (string or object) its legacy alias.
  for (const candidate of [raw.logentry, raw['sentry.interfaces.Message'], raw.message]) {
    const found = messageFrom(candidate);
    if (found.message) return found;
  }
  return {};
}

function messageFrom(value: unknown): MessageParts {
  if (typeof value === 'string') return { message: nonEmpty(truncate(value, EVENT_LIMITS.message)) };
  if (!isObject(value)) return {};
  const template = typeof value.message === 'string' ? value.message : undefined;
  const hasParams = (Array.isArray(value.params) && value.params.length > 0) || isObject(value.params);
  const formatted = typeof value.formatted === 'string' && value.formatted.trim() !== '' ? value.formatted : undefined;
  const message = formatted ?? (template !== undefined && hasParams ? formatParams(template, value.params) : template);
  const parts: MessageParts = { message: message === undefined ? undefined : nonEmpty(truncate(message, EVENT_LIMITS.message)) };
  if (template !== undefined && hasParams && template !== message) {
    parts.template = truncate(template, EVENT_LIMITS.message);
    parts.params = boundJson(value.params, 0, EVENT_LIMITS.smallData);
  }
  return parts;
}

/** Applies params the way Python's `%` does for the common cases: `%s`/`%d`/`%i`/`%f`, `%(name)s`. */
export function formatParams(template: string, params: unknown): string {
  if (Array.isArray(params)) {
    let index = 0;
    return template.replace(/%[sdif%]/g, (token) => {
      if (token === '%%') return '%';
      if (index >= params.length) return token;
      return paramText(params[index++]);
    });
  }
  if (isObject(params)) {
    return template.replace(/%\(([^)]+)\)[sdif]/g, (token, name: string) => (Object.hasOwn(params, name) ? paramText(params[name]) : token));
  }
  return template;
}

function paramText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return safeStringify(value, EVENT_LIMITS.dataString);
  return String(value);
}
