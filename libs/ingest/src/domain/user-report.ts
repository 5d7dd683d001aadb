import { normalizeEventId } from '@faultline/kernel';
import { parseStorableJson, storableText } from './storable-text';

/** Sentry's limits on a user report's fields, in characters. */
export const USER_REPORT_LIMITS = { name: 128, email: 75, comments: 4096 } as const;

/** A user report as read from an SDK item, before it is given a project. */
export interface ParsedUserReport {
  readonly reportId: string;
  readonly eventId: string | null;
  readonly name: string;
  readonly email: string;
  readonly comments: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? storableText(value).trim() : '');
const eventId = (value: unknown): string | null => normalizeEventId(value) ?? null;

/** Why a report is refused, or undefined when its fields are within Sentry's limits. */
function problemOf(report: ParsedUserReport): string | undefined {
  if (report.comments === '') return 'comments are required';
  for (const field of ['name', 'email', 'comments'] as const) {
    if (report[field].length > USER_REPORT_LIMITS[field]) return `${field} is longer than ${USER_REPORT_LIMITS[field]} characters`;
  }
  return undefined;
}

/**
 * The legacy user report (`user_report` item, the user-feedback API): `{event_id, name, email,
 * comments}` about one error event, which is also the report's id.
 */
export function userReportOf(value: unknown): ParsedUserReport | { problem: string } {
  if (!isObject(value)) return { problem: 'a user report is a JSON object' };
  const id = eventId(value.event_id);
  if (!id) return { problem: 'event_id must be the 32 hexadecimal digits of an event id' };
  const report = { reportId: id, eventId: id, name: text(value.name), email: text(value.email), comments: text(value.comments) };
  const problem = problemOf(report);
  return problem ? { problem } : report;
}

/**
 * The feedback item of the current SDKs: an event whose `contexts.feedback` holds the message, the
 * contact and the error event it is about, if any; the item's own event id is the report's id.
 */
export function feedbackReportOf(value: unknown): ParsedUserReport | { problem: string } {
  if (!isObject(value)) return { problem: 'a feedback item is a JSON object' };
  const feedback = isObject(value.contexts) && isObject(value.contexts.feedback) ? value.contexts.feedback : undefined;
  if (!feedback) return { problem: 'a feedback item carries contexts.feedback' };
  const id = eventId(value.event_id);
  if (!id) return { problem: 'event_id must be the 32 hexadecimal digits of an event id' };
  const user = isObject(value.user) ? value.user : {};
  const report = {
    reportId: id,
    eventId: eventId(feedback.associated_event_id),
    name: text(feedback.name) || text(user.name) || text(user.username),
    email: text(feedback.contact_email) || text(user.email),
    comments: text(feedback.message),
  };
  const problem = problemOf(report);
  return problem ? { problem } : report;
}

/** The report an envelope item carries, by its type; undefined for items that are not reports. */
export function reportOfItem(type: string, payload: Buffer): ParsedUserReport | { problem: string } | undefined {
  if (type !== 'user_report' && type !== 'feedback') return undefined;
  let value: unknown;
  try {
    value = parseStorableJson(payload.toString('utf8'));
  } catch {
    return { problem: `the ${type} item is not valid JSON` };
  }
  return type === 'user_report' ? userReportOf(value) : feedbackReportOf(value);
}
