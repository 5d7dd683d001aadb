import { Inject, Injectable } from '@nestjs/common';
import type { MemberRecipient } from '@faultline/identity';
import { IssueTopFrames, type IssueWebhookPayload, IssueWebhookPayloads } from '@faultline/issues';
import { newHexId } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type Transaction } from '@faultline/platform';
import { type QueuedDelivery, WebhookTargets } from '@faultline/webhooks';
import { type IssueDigest, issueMail, type MailMessage } from '../domain/issue-messages';
import { type NotificationType, unsubscribeToken } from '../domain/unsubscribe-token';
import { MAIL_TARGET } from './mail-target-kind';
import { NotificationsRepository } from './notifications.repository';

/** One mail to queue. */
export interface OutgoingMail {
  readonly organizationId: string;
  readonly to: string;
  readonly userId: string | null;
  /** Why it is sent (`alert`, `assigned`, `invite`, ...), for the log. */
  readonly reason: string;
  /** What caused it: one mail per address and cause. */
  readonly cause: string;
  readonly issueId: string | null;
  readonly message: MailMessage;
}

/**
 * Queues mail through the delivery engine inside the transaction that causes it, and logs it per
 * organization. Issue mail names the issue as the issues context publishes it and carries a
 * signed unsubscribe link for its type.
 */
@Injectable()
export class MailOutbox {
  constructor(
    private readonly targets: WebhookTargets,
    private readonly repository: NotificationsRepository,
    private readonly issues: IssueWebhookPayloads,
    private readonly frames: IssueTopFrames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async queue(tx: Transaction, mails: readonly OutgoingMail[]): Promise<OutgoingMail[]> {
    const rows: QueuedDelivery[] = [];
    const logged = [];
    for (const mail of mails) {
      const guid = newHexId();
      rows.push({
        guid,
        targetKind: MAIL_TARGET,
        targetId: mail.to.toLowerCase(),
        cause: mail.cause,
        eventType: `mail.${mail.reason}`,
        body: JSON.stringify(mail.message),
      });
      logged.push({
        organizationId: mail.organizationId,
        deliveryGuid: guid,
        userId: mail.userId,
        recipient: mail.to.toLowerCase(),
        reason: mail.reason,
        subject: mail.message.subject,
        issueId: mail.issueId,
      });
    }
    if (rows.length === 0) return [];
    await this.targets.enqueue(tx, rows);
    // A cause already queued for an address is not queued again: log only what the engine took.
    const queued = new Set(
      await this.targets.queuedGuids(
        tx,
        rows.map((row) => row.guid),
      ),
    );
    await this.repository.logMails(
      tx,
      logged.filter((mail) => queued.has(mail.deliveryGuid)),
    );
    return mails.filter((_mail, index) => queued.has(rows[index].guid));
  }

  /** The issues as mail and chat show them, read in the caller's transaction. */
  async digests(tx: Transaction, issueIds: readonly string[]): Promise<Map<string, IssueDigest>> {
    const views = await this.issues.find(tx, issueIds);
    const frames = await this.frames.topInAppFrames(tx, [...views.keys()]);
    return new Map([...views].map(([id, view]) => [id, digestOf(view.issue, frames.get(id))]));
  }

  /** Issue mail to members, without those who turned this type off. */
  async issueMails(
    tx: Transaction,
    input: {
      organizationId: string;
      issueId: string;
      digest: IssueDigest;
      recipients: readonly MemberRecipient[];
      type: NotificationType;
      reason: string;
      cause: string;
      headline: string;
    },
  ): Promise<OutgoingMail[]> {
    const optedOut = await this.repository.optedOut(
      tx,
      input.recipients.map((r) => r.userId),
      input.type,
    );
    const key = await this.repository.signingKey(tx);
    const mails = input.recipients
      .filter((recipient) => !optedOut.has(recipient.userId))
      .map((recipient): OutgoingMail => ({
        organizationId: input.organizationId,
        to: recipient.email,
        userId: recipient.userId,
        reason: input.reason,
        cause: input.cause,
        issueId: input.issueId,
        message: issueMail(
          recipient.email,
          input.headline,
          input.digest,
          `${this.config.publicUrl}/unsubscribe/${unsubscribeToken(key, recipient.userId, input.type)}/`,
        ),
      }));
    return this.queue(tx, mails);
  }
}

export function digestOf(issue: IssueWebhookPayload, topFrame: string | undefined): IssueDigest {
  return {
    ...(topFrame ? { topFrame } : {}),
    shortId: issue.shortId,
    title: issue.title,
    culprit: issue.culprit,
    level: issue.level,
    count: issue.count,
    firstSeen: issue.firstSeen,
    lastSeen: issue.lastSeen,
    projectName: issue.project.name,
    projectSlug: issue.project.slug,
    url: issue.web_url,
  };
}
