import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@faultline/platform';
import type { DeliveryTarget, OutgoingDelivery, SentAttempt, TransportDeliveryTargetKind } from '@faultline/webhooks';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage } from '../domain/issue-messages';
import { type MailConfig, mailConfig } from './mail-config';

export const MAIL_TARGET = 'email';

/**
 * Mail as a delivery target kind: a target is one address, a delivery one message, sent over SMTP
 * (SMTP_URL). A 5xx reply is final; a 4xx reply, a refused connection or a time-out is retried
 * on MAIL_RETRY_SCHEDULE. Without SMTP_URL nothing is sent: the mail stays in the delivery log.
 */
@Injectable()
export class MailTargetKind implements TransportDeliveryTargetKind, OnApplicationShutdown {
  readonly name = MAIL_TARGET;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly removedReason = 'the recipient was removed';
  readonly config: MailConfig;
  private readonly transport?: Transporter;
  /** Only worker processes (`ROLE` all or worker) send; an API process or the CLI has nothing to say. */
  private readonly sends: boolean;
  private readonly logger = new Logger('Mail');

  constructor(@Inject(APP_CONFIG) appConfig: AppConfig) {
    this.sends = appConfig.role !== 'api';
    this.config = mailConfig(appConfig.environment, appConfig.publicUrl);
    this.timeoutMs = this.config.timeoutMs;
    this.retryScheduleSeconds = this.config.retryScheduleSeconds;
    if (this.config.smtpUrl) {
      const timeout = this.config.timeoutMs;
      this.transport = createTransport({ url: this.config.smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout } as never);
    }
  }

  /** Said once at start by the processes that send, so an operator knows why nobody gets mail. */
  announce(): void {
    if (!this.transport && this.sends)
      this.logger.warn('SMTP_URL is not set: mail is not sent, only kept in the delivery log (GET /api/0/organizations/{org}/mail-deliveries/)');
  }

  async resolve(addresses: readonly string[]): Promise<ReadonlyMap<string, DeliveryTarget>> {
    return new Map(addresses.map((address) => [address, { id: address, url: `mailto:${address}`, secret: '', active: true }]));
  }

  async send(delivery: OutgoingDelivery, target: DeliveryTarget, signal: AbortSignal): Promise<SentAttempt> {
    const message = JSON.parse(delivery.body) as MailMessage;
    const request = { from: this.config.from, to: target.id, subject: message.subject, 'message-id': `<${delivery.guid}@faultline>` };
    if (!this.transport) return { outcome: { kind: 'rejected', reason: 'not sent: SMTP_URL is not set' }, request };
    try {
      const sending = this.transport.sendMail({
        from: this.config.from,
        to: target.id,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: request['message-id'],
        ...(message.unsubscribeUrl ? { list: { unsubscribe: { url: message.unsubscribeUrl, comment: 'Unsubscribe' } } } : {}),
      });
      const aborted = new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const info = (await Promise.race([sending, aborted])) as { response?: string };
      return { outcome: { kind: 'delivered' }, request, response: info.response };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      // 5xx: the server will not take it, however often it is asked.
      if (code !== undefined && code >= 500) return { outcome: { kind: 'rejected', reason: `SMTP ${code}: ${(error as Error).message}` }, request };
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
