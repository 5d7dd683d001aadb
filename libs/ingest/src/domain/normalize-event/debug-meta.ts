import { EVENT_LIMITS } from './limits';
import { assign, bool, isObject } from './fields';
import { boundJson, smallObject } from './json-bounds';
import type { JsonObject, NormalizedDebugMeta } from './types';

/** Debug images and SDK info, kept as sent within the small bags' bounds: symbolication reads them. */
export function normalizeDebugMeta(value: unknown): NormalizedDebugMeta | undefined {
  if (!isObject(value)) return undefined;
  const debugMeta: NormalizedDebugMeta = {};
  if (Array.isArray(value.images)) {
    const images = value.images
      .slice(0, EVENT_LIMITS.maxDebugImages)
      .filter(isObject)
      .map((image) => boundJson(image, 0, EVENT_LIMITS.smallData) as JsonObject);
    if (images.length > 0) debugMeta.images = images;
  }
  assign(debugMeta, 'sdkInfo', smallObject(value.sdk_info));
  assign(debugMeta, 'isDebugBuild', bool(value.is_debug_build));
  return Object.keys(debugMeta).length > 0 ? debugMeta : undefined;
}
