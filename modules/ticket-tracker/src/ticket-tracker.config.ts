import type { AppConfig } from '@faultline/platform';

export interface TicketTrackerConfig {
  /** Where tickets are opened: an HTTP endpoint that takes a POST per ticket. */
  readonly url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  readonly token?: string;
  /** One deadline per call over connect, headers and body. */
  readonly timeoutMs: number;
  /** Seconds before each retry of a failed call; the last one repeats (nothing is dropped). */
  readonly retrySeconds: readonly number[];
  /** The service's own URL, for the link back to the issue. */
  readonly publicUrl: string;
}

export const TICKET_TRACKER_CONFIG = Symbol('TicketTrackerConfig');

/** Reads the module's settings from the application's environment; a bad one stops the start. */
export function ticketTrackerConfig(config: AppConfig): TicketTrackerConfig {
  const env = config.environment;
  const url = env.TICKET_TRACKER_URL;
  if (!url) throw new Error('TICKET_TRACKER_URL is required (the tracker endpoint that opens tickets)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`TICKET_TRACKER_URL must be an absolute http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`TICKET_TRACKER_URL must be an absolute http(s) URL, got "${url}"`);
  }
  const timeoutMs = Number(env.TICKET_TRACKER_TIMEOUT_MS ?? 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000) {
    throw new Error(`TICKET_TRACKER_TIMEOUT_MS must be an integer between 100 and 120000, got "${env.TICKET_TRACKER_TIMEOUT_MS}"`);
  }
  const retrySeconds = (env.TICKET_TRACKER_RETRY_SCHEDULE ?? '10,60,300,1800,3600')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(Number);
  if (retrySeconds.length === 0 || retrySeconds.some((seconds) => !Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)) {
    throw new Error(`TICKET_TRACKER_RETRY_SCHEDULE must be comma-separated seconds (0 to 86400), got "${env.TICKET_TRACKER_RETRY_SCHEDULE}"`);
  }
  return { url, token: env.TICKET_TRACKER_TOKEN || undefined, timeoutMs, retrySeconds, publicUrl: config.publicUrl };
}
