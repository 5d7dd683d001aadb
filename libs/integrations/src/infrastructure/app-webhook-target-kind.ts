import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { type AttemptOutcome, classifyResponse, type DeliveryTarget, type HttpDeliveryTargetKind, type OutgoingDelivery, signBody } from '@faultline/webhooks';
import { APP_WEBHOOK_TARGET } from '../domain';
import { SentryAppsRepository } from './sentry-apps.repository';

interface AppReceiver extends DeliveryTarget {
  /** Extra "Name: value" headers the app asked for. */
  readonly headers: readonly string[];
}

/** Sentry does not retry an app's 4xx answer (but 429): the app rejected it, and sending it again changes nothing. */
export function classifyAppResponse(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
  if (statusCode >= 400 && statusCode < 500 && statusCode !== 429) return { kind: 'rejected', reason: `the app answered ${statusCode}` };
  return classifyResponse(statusCode, retryAfter, now);
}

/**
 * Service apps as a delivery target: Sentry's integration-platform headers (`<Brand>-Hook-Resource`,
 * `-Timestamp`, `-Signature`, `Request-ID`) signed with the app's client secret, the app's own
 * headers, a short time-out (`WEBHOOK_APP_TIMEOUT_MS`; Sentry's is one second), and a 4xx is final.
 * The target is the app, read from the app itself when a delivery is sent, so a changed URL or
 * secret applies to queued deliveries too.
 */
@Injectable()
export class AppWebhookTargetKind implements HttpDeliveryTargetKind<AppReceiver> {
  readonly name = APP_WEBHOOK_TARGET;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly removedReason = 'the receiver was removed';

  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.timeoutMs = config.webhooks.appTimeoutMs;
    this.retryScheduleSeconds = config.webhooks.retryScheduleSeconds;
  }

  async resolve(appUuids: readonly string[]): Promise<ReadonlyMap<string, AppReceiver>> {
    const rows = await this.apps.webhookReceivers(this.database, appUuids);
    return new Map(
      rows.map((row) => [row.uuid, { id: row.uuid, url: row.webhook_url, secret: row.client_secret, active: true, headers: row.webhook_headers }]),
    );
  }

  headers(delivery: OutgoingDelivery, target: AppReceiver, at: Date): Record<string, string> {
    const brand = this.config.webhooks.headerBrand;
    return {
      ...customHeaders(target.headers),
      'Content-Type': 'application/json',
      'User-Agent': 'Faultline-Webhooks/1.0',
      'Request-ID': delivery.guid,
      [`${brand}-Hook-Resource`]: delivery.eventType.split('.')[0],
      [`${brand}-Hook-Timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${brand}-Hook-Signature`]: signBody(target.secret, delivery.body),
    };
  }

  classify(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
    return classifyAppResponse(statusCode, retryAfter, now);
  }
}

/** "Name: value" entries as headers; malformed entries are skipped (they were validated when saved). */
function customHeaders(entries: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf(':');
    if (separator > 0) headers[entry.slice(0, separator).trim()] = entry.slice(separator + 1).trim();
  }
  return headers;
}
