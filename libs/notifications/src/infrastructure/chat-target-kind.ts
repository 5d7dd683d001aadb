import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@faultline/platform';
import { type AttemptOutcome, classifyResponse, type DeliveryTarget, type HttpDeliveryTargetKind } from '@faultline/webhooks';

export const CHAT_TARGET = 'chat_webhook';

/**
 * Chat services' incoming webhooks (Slack, Discord, Microsoft Teams, Mattermost): a target is one
 * webhook URL, the body is already in its service's format. The engine's outbound address policy
 * applies as to every webhook. A 4xx other than 408 and 429 means the URL is wrong or revoked:
 * final for the message, not retried.
 */
@Injectable()
export class ChatTargetKind implements HttpDeliveryTargetKind {
  readonly name = CHAT_TARGET;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly removedReason = 'the chat webhook was removed';

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timeoutMs = config.webhooks.timeoutMs;
    this.retryScheduleSeconds = config.webhooks.retryScheduleSeconds;
  }

  async resolve(urls: readonly string[]): Promise<ReadonlyMap<string, DeliveryTarget>> {
    return new Map(urls.map((url) => [url, { id: url, url, secret: '', active: true }]));
  }

  headers(): Record<string, string> {
    return { 'content-type': 'application/json', 'user-agent': 'Faultline-Notifications/1.0' };
  }

  classify(statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
    if (statusCode >= 400 && statusCode < 500 && statusCode !== 408 && statusCode !== 429) {
      return { kind: 'rejected', reason: `the chat service answered ${statusCode}` };
    }
    return classifyResponse(statusCode, retryAfter, now);
  }
}
