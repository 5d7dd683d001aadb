import { isObject } from './fields';
import { boundObject } from './json-bounds';
import { SECURITY_REPORT_TYPES, type NormalizedEvent } from './types';

/** Browser security reports (`csp`, `nel`, …), each kept as sent, bounded. */
export function normalizeSecurityReports(raw: Record<string, unknown>): NormalizedEvent['securityReports'] {
  let reports: NormalizedEvent['securityReports'];
  for (const type of SECURITY_REPORT_TYPES) {
    if (isObject(raw[type])) (reports ??= {})[type] = boundObject(raw[type]);
  }
  return reports;
}
