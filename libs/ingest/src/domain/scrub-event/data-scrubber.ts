import type { DataPrivacySettings } from '@faultline/kernel';
import type { JsonObject, JsonValue } from '../normalize-event';
import {
  COMMON_VALUE_RULES,
  FILTERED,
  IP_RULE,
  isPasswordLike,
  isTokenKey,
  REPLACE_ONLY_RULES,
  SENSITIVE_COOKIES,
  type ValueRule,
  withoutReplacements,
} from './rules';

/** A project's effective data scrubbing settings made ready to apply: once per settings change, not per event. */
export interface DataScrubber {
  /** False when nothing would be scrubbed: the event is left as it is. */
  readonly enabled: boolean;
  readonly defaults: boolean;
  readonly scrubIps: boolean;
  /** Lowercased `sensitiveFields`, tested as substrings of keys and values (only when `dataScrubber` is on). */
  readonly sensitiveFields: readonly string[];
  /** Lowercased `safeFields` without a dot: keys never scrubbed, at any depth. */
  readonly safeKeys: ReadonlySet<string>;
  /** Lowercased `safeFields` with dots (`extra.order`): paths never scrubbed, matched against the end of a value's path. */
  readonly safePaths: readonly (readonly string[])[];
  /** The value rules of every field that is not the message: `@common:filter` and `@ip:replace` as set. */
  readonly valueRules: readonly ValueRule[];
  /** The message's and exception values' rules: replacements that keep them readable, and `@ip:replace` as set. */
  readonly readableRules: readonly ValueRule[];
}

export function dataScrubber(settings: DataPrivacySettings): DataScrubber {
  const scrubData = settings.dataScrubber;
  const defaults = scrubData && settings.dataScrubberDefaults;
  const ip = settings.scrubIPAddresses ? [IP_RULE] : [];
  const safe = settings.safeFields.map((field) => field.trim().toLowerCase()).filter((field) => field !== '');
  return {
    enabled: scrubData || settings.scrubIPAddresses,
    defaults,
    scrubIps: settings.scrubIPAddresses,
    sensitiveFields: scrubData ? settings.sensitiveFields.map((field) => field.trim().toLowerCase()).filter((field) => field !== '') : [],
    safeKeys: new Set(safe.filter((field) => !field.includes('.'))),
    safePaths: safe.filter((field) => field.includes('.')).map((field) => field.split('.')),
    valueRules: [...(defaults ? COMMON_VALUE_RULES : []), ...ip],
    readableRules: [...(defaults ? REPLACE_ONLY_RULES : []), ...ip],
  };
}

export const NO_SCRUBBING: DataScrubber = dataScrubber({
  dataScrubber: false,
  dataScrubberDefaults: false,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
});

/** Sentry's `_meta` remark: the rule, `s` (substituted, with the range it now fills) or `x` (removed). */
export type Remark = [string, 's', number, number] | [string, 'x'];

export type Path = ReadonlyArray<string | number>;

/** Where a value is, built only when something there changes: most values change nothing. */
interface Place {
  readonly parent: Path | Place;
  readonly key: string | number;
}

function pathOf(place: Path | Place): Array<string | number> {
  if (Array.isArray(place)) return [...(place as Path)];
  const { parent, key } = place as Place;
  const path = pathOf(parent);
  path.push(key);
  return path;
}

/** How a value is scrubbed: every rule, the readable rules only (message, exception values), or as a cookie. */
export type ValueKind = 'data' | 'readable' | 'cookie';

/**
 * One scrubbing pass over free-form values, collecting Sentry's `_meta` (`{"": {"rem": [...],
 * "len": n}}` at each changed path) into `meta`.
 */
export class ScrubPass {
  constructor(
    private readonly scrubber: DataScrubber,
    readonly meta: JsonObject = {},
  ) {}

  /** The value under `key` at `path`, scrubbed (null when it is removed). Values already filtered stay as they are, so a second pass changes nothing. */
  value(value: JsonValue, key: string | undefined, path: Path | Place, kind: ValueKind = 'data'): JsonValue {
    if (value === null || typeof value === 'boolean') return value;
    if (key !== undefined && this.isSafe(key, path)) return value;
    const keyRule = key === undefined ? undefined : this.keyRule(key, kind);
    if (keyRule) return this.replaceWhole(value, keyRule, path);
    if (typeof value === 'string') return this.text(value, path, kind);
    if (typeof value === 'number') return this.number(value, path);
    if (Array.isArray(value)) return value.map((item, index) => this.value(item, undefined, { parent: path, key: index }));
    // fromEntries defines keys, so a `__proto__` key stays a key.
    return Object.fromEntries(Object.entries(value).map(([childKey, child]) => [childKey, this.value(child, childKey, { parent: path, key: childKey })]));
  }

  /** A `[key, value]` list (headers, cookies, query, tags): each value scrubbed under its key; a removed value becomes `[Filtered]`, as lists hold text. */
  pairs(pairs: Array<[string, string]>, path: Path, kind: ValueKind = 'data', skip?: (lowerKey: string) => boolean): Array<[string, string]> {
    return pairs.map(([key, value], index) => {
      if (skip?.(key.toLowerCase())) return [key, value];
      const scrubbed = this.value(value, key, { parent: { parent: path, key: index }, key: 1 }, kind);
      return [key, typeof scrubbed === 'string' ? scrubbed : FILTERED];
    });
  }

  /** Removes a value that is an address whatever it holds (`@anything:remove` on Relay's known IP fields). */
  remove(path: Path): void {
    this.remark(path, ['@anything:remove', 'x']);
  }

  private isSafe(key: string, place: Path | Place): boolean {
    const { safeKeys, safePaths } = this.scrubber;
    if (safeKeys.size === 0 && safePaths.length === 0) return false;
    if (safeKeys.has(key.toLowerCase())) return true;
    if (safePaths.length === 0) return false;
    const path = pathOf(place);
    return safePaths.some(
      (safe) => safe.length <= path.length && safe.every((part, index) => String(path[path.length - safe.length + index]).toLowerCase() === part),
    );
  }

  private keyRule(key: string, kind: ValueKind): string | undefined {
    if (this.scrubber.defaults) {
      if (kind === 'cookie' && SENSITIVE_COOKIES.has(key.toLowerCase())) return '@anything:filter';
      if (isPasswordLike(key) || isTokenKey(key)) return '@password:filter';
    }
    if (this.scrubber.sensitiveFields.length > 0) {
      const lowerKey = key.toLowerCase();
      if (this.scrubber.sensitiveFields.some((field) => lowerKey.includes(field))) return 'strip-fields';
    }
    return undefined;
  }

  private replaceWhole(value: JsonValue, rule: string, path: Path | Place): JsonValue {
    if (value === FILTERED) return value;
    if (typeof value === 'string') {
      this.remark(path, [rule, 's', 0, FILTERED.length], value.length);
      return FILTERED;
    }
    this.remark(path, [rule, 'x']);
    return null;
  }

  private text(value: string, path: Path | Place, kind: ValueKind): string {
    if (kind !== 'readable' && value !== FILTERED) {
      // Relay's `@password` and `strip-fields` match values as well as keys, and then take the whole value.
      const written = withoutReplacements(value);
      if (this.scrubber.defaults && isPasswordLike(written)) return this.replaceWhole(value, '@password:filter', path) as string;
      if (this.scrubber.sensitiveFields.length > 0) {
        const lower = written.toLowerCase();
        if (this.scrubber.sensitiveFields.some((sensitive) => lower.includes(sensitive))) return this.replaceWhole(value, 'strip-fields', path) as string;
      }
    }
    const rules = kind === 'readable' ? this.scrubber.readableRules : this.scrubber.valueRules;
    if (rules.length === 0) return value;
    const redacted = redactParts(value, rules);
    if (!redacted) return value;
    this.remarks(path, redacted.remarks, value.length);
    return redacted.text;
  }

  /** A number is looked at as its digits: one that is a card number is removed. */
  private number(value: number, path: Path | Place): JsonValue {
    if (!this.scrubber.defaults || !Number.isSafeInteger(value) || Math.abs(value) < 1e12) return value;
    const card = COMMON_VALUE_RULES[0];
    if (card.find(String(value)).length === 0) return value;
    this.remark(path, [card.name, 'x']);
    return null;
  }

  private remark(path: Path | Place, remark: Remark, originalLength?: number): void {
    this.remarks(path, [remark], originalLength);
  }

  private remarks(place: Path | Place, remarks: Remark[], originalLength?: number): void {
    let node = this.meta;
    for (const part of pathOf(place)) {
      const key = String(part);
      const child = node[key];
      node = (child && typeof child === 'object' && !Array.isArray(child) ? child : (node[key] = {})) as JsonObject;
    }
    const entry = (node[''] ?? (node[''] = {})) as JsonObject;
    entry.rem = [...((entry.rem as JsonValue[] | undefined) ?? []), ...remarks];
    if (originalLength !== undefined && entry.len === undefined) entry.len = originalLength;
  }
}

/** Applies each rule in turn to the parts of the text no earlier rule replaced. Undefined when nothing matched. */
function redactParts(text: string, rules: readonly ValueRule[]): { text: string; remarks: Remark[] } | undefined {
  let chunks: Array<{ text: string; rule?: string }> = [{ text }];
  let changed = false;
  for (const rule of rules) {
    if (!rule.mayMatch(text)) continue;
    const next: typeof chunks = [];
    for (const chunk of chunks) {
      const spans = chunk.rule ? [] : rule.find(chunk.text);
      if (spans.length === 0) {
        next.push(chunk);
        continue;
      }
      changed = true;
      let position = 0;
      for (const span of spans) {
        if (span.start < position) continue;
        if (span.start > position) next.push({ text: chunk.text.slice(position, span.start) });
        next.push({ text: rule.replacement, rule: rule.name });
        position = span.end;
      }
      if (position < chunk.text.length) next.push({ text: chunk.text.slice(position) });
    }
    chunks = next;
  }
  if (!changed) return undefined;
  const remarks: Remark[] = [];
  let output = '';
  for (const chunk of chunks) {
    if (chunk.rule) remarks.push([chunk.rule, 's', output.length, output.length + chunk.text.length]);
    output += chunk.text;
  }
  return { text: output, remarks };
}
