import { normalizeNonNilEventId } from '@faultline/kernel';
import { EVENT_LIMITS } from './limits';
import { normalizeLevel } from './attributes';
import { assign, isObject, str } from './fields';
import { lenientString, smallObject } from './json-bounds';
import type { NormalizedBreadcrumb } from './types';

/**
 * Keeps the newest breadcrumbs, each field bounded; crumbs are otherwise kept as sent (oldest
 * first), with no per-crumb work beyond that.
 */
export function normalizeBreadcrumbs(value: unknown): NormalizedBreadcrumb[] | undefined {
  const list = isObject(value) && Array.isArray(value.values) ? value.values : Array.isArray(value) ? value : [];
  const breadcrumbs: NormalizedBreadcrumb[] = [];
  for (const entry of list.slice(-EVENT_LIMITS.maxBreadcrumbs)) {
    if (!isObject(entry)) continue;
    const crumb: NormalizedBreadcrumb = {};
    assign(
      crumb,
      'timestamp',
      typeof entry.timestamp === 'number' && Number.isFinite(entry.timestamp) ? entry.timestamp : str(entry.timestamp, EVENT_LIMITS.shortField),
    );
    assign(crumb, 'type', str(entry.type, EVENT_LIMITS.shortField));
    assign(crumb, 'category', str(entry.category, EVENT_LIMITS.shortField * 2));
    if (entry.level !== undefined && entry.level !== null) crumb.level = normalizeLevel(entry.level);
    assign(crumb, 'message', lenientString(entry.message, EVENT_LIMITS.message));
    assign(crumb, 'data', smallObject(entry.data));
    assign(crumb, 'eventId', normalizeNonNilEventId(entry.event_id));
    if (Object.keys(crumb).length > 0) breadcrumbs.push(crumb);
  }
  return breadcrumbs.length > 0 ? breadcrumbs : undefined;
}
