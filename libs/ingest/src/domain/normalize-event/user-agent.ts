import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';
import { isObject, scalarText, truncate } from './fields';
import { EVENT_LIMITS } from './limits';
import type { JsonObject, NormalizedRequest, StringPairs } from './types';

/** Longer User-Agent headers are cut before parsing: real ones are a few hundred characters. */
export const MAX_PARSED_USER_AGENT = 512;
/** Parsed headers kept: browsers repeat a few thousand distinct User-Agents at most. */
const CACHED_USER_AGENTS = 2_000;

/** What a User-Agent says, as Relay puts it into `browser`, `os` and `device` contexts. */
interface UserAgentContexts {
  readonly browser?: JsonObject;
  readonly os?: JsonObject;
  readonly device?: JsonObject;
}

const parsed = new LRUCache<string, UserAgentContexts>({ max: CACHED_USER_AGENTS });

function parseUserAgent(header: string): UserAgentContexts {
  const ua = header.slice(0, MAX_PARSED_USER_AGENT);
  const cached = parsed.get(ua);
  if (cached) return cached;
  const result = new UAParser(ua).getResult();
  const contexts: { browser?: JsonObject; os?: JsonObject; device?: JsonObject } = {};
  if (result.browser.name) contexts.browser = withVersion({ type: 'browser', name: result.browser.name }, result.browser.version);
  if (result.os.name) contexts.os = withVersion({ type: 'os', name: result.os.name }, result.os.version);
  if (result.device.model) {
    contexts.device = { type: 'device', family: result.device.model, model: result.device.model };
    if (result.device.vendor) contexts.device.brand = result.device.vendor;
  }
  parsed.set(ua, contexts);
  return contexts;
}

function withVersion(context: JsonObject, version: string | undefined): JsonObject {
  if (version) context.version = version;
  return context;
}

/**
 * Fills the `browser`, `os` and `device` contexts from the request's User-Agent header where the
 * SDK sent none, as Relay does; an `os` the SDK sent (a server's) leaves the User-Agent's as
 * `client_os`.
 */
export function contextsFromUserAgent(contexts: JsonObject | undefined, request: NormalizedRequest | undefined): JsonObject | undefined {
  const header = request?.headers?.find(([name]) => name.toLowerCase() === 'user-agent')?.[1];
  if (!header) return contexts;
  const found = parseUserAgent(header);
  const filled: JsonObject = { ...contexts };
  const add = (key: string, context: JsonObject | undefined) => {
    if (context && !isObject(filled[key])) filled[key] = { ...context };
  };
  add('browser', found.browser);
  if (isObject(filled.os)) add('client_os', found.os);
  else add('os', found.os);
  add('device', found.device);
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Sentry's tags of the known contexts: `{key}` as the context's summary (name and version, or the
 * device's model) and `{key}.{field}`, for contexts of that type under their own key.
 */
const CONTEXT_TAGS: Record<string, { summary: (context: JsonObject) => string | undefined; fields: readonly string[] }> = {
  browser: { summary: (context) => nameAndVersion(context, 'browser'), fields: ['name'] },
  os: { summary: (context) => nameAndVersion(context, 'os'), fields: ['name'] },
  client_os: { summary: (context) => nameAndVersion(context, 'os'), fields: ['name'] },
  runtime: { summary: (context) => nameAndVersion(context, 'runtime'), fields: ['name'] },
  device: { summary: (context) => scalarText(context.model), fields: ['family'] },
};

function nameAndVersion(context: JsonObject, summaryField: string): string | undefined {
  const own = scalarText(context[summaryField]);
  if (own) return own;
  const name = scalarText(context.name);
  const version = scalarText(context.version);
  return name && version ? `${name} ${version}` : name;
}

/** The SDK's tags, then those of the contexts for keys the SDK did not tag, within the tag limit. */
export function withContextTags(tags: StringPairs, contexts: JsonObject | undefined): StringPairs {
  if (!contexts) return tags;
  const all = [...tags];
  const seen = new Set(tags.map(([key]) => key));
  const add = (key: string, value: string | undefined) => {
    const text = value?.trim();
    if (!text || seen.has(key) || all.length >= EVENT_LIMITS.maxTags) return;
    seen.add(key);
    all.push([key, truncate(text, EVENT_LIMITS.tagValue)]);
  };
  for (const [key, mapping] of Object.entries(CONTEXT_TAGS)) {
    const context = contexts[key];
    if (!isObject(context)) continue;
    if (context.type !== undefined && context.type !== (key === 'client_os' ? 'os' : key)) continue;
    add(key, mapping.summary(context as JsonObject));
    for (const field of mapping.fields) add(`${key}.${field}`, scalarText(context[field]));
  }
  return all;
}
