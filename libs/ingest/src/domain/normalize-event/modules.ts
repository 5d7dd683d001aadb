import { EVENT_LIMITS } from './limits';
import { isObject, scalarText, truncate } from './fields';

/** Installed packages and their versions, by name. */
export function normalizeModules(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const modules: Array<[string, string]> = [];
  for (const [name, version] of Object.entries(value)) {
    if (modules.length >= EVENT_LIMITS.maxModules) break;
    const text = scalarText(version);
    if (name && text !== undefined) modules.push([truncate(name, EVENT_LIMITS.field), truncate(text, EVENT_LIMITS.shortField)]);
  }
  return modules.length > 0 ? Object.fromEntries(modules) : undefined;
}
