import { EVENT_LIMITS } from './limits';
import { assign, isObject, str, truncate } from './fields';
import type { NormalizedSdk } from './types';

/** The SDK's name, version, integrations and packages. */
export function normalizeSdk(value: unknown): NormalizedSdk | undefined {
  if (!isObject(value)) return undefined;
  const sdk: NormalizedSdk = {};
  assign(sdk, 'name', str(value.name, EVENT_LIMITS.field));
  assign(sdk, 'version', str(value.version, EVENT_LIMITS.shortField));
  if (Array.isArray(value.integrations)) {
    const integrations = value.integrations
      .filter((name): name is string => typeof name === 'string' && name !== '')
      .slice(0, EVENT_LIMITS.maxIntegrations)
      .map((name) => truncate(name, EVENT_LIMITS.shortField));
    if (integrations.length > 0) sdk.integrations = integrations;
  }
  if (Array.isArray(value.packages)) {
    const packages = value.packages
      .filter((entry): entry is Record<string, unknown> => isObject(entry) && typeof entry.name === 'string' && typeof entry.version === 'string')
      .slice(0, EVENT_LIMITS.maxIntegrations)
      .map((entry) => ({ name: truncate(entry.name as string, EVENT_LIMITS.field), version: truncate(entry.version as string, EVENT_LIMITS.shortField) }));
    if (packages.length > 0) sdk.packages = packages;
  }
  return Object.keys(sdk).length > 0 ? sdk : undefined;
}
