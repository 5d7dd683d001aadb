import { Injectable } from '@nestjs/common';
import type { ProjectTransferNotice } from '@faultline/projects';
import type { Transaction } from '@faultline/platform';
import { linkMail } from '../domain/issue-messages';
import { MailOutbox } from './mail-outbox';

/** Mails a project transfer link to the owner it is for, in the requesting transaction (as invitations are mailed). */
@Injectable()
export class ProjectTransferMailer {
  constructor(private readonly mail: MailOutbox) {}

  readonly onRequested = async (tx: Transaction, notice: ProjectTransferNotice): Promise<void> => {
    const by = notice.requestedByName ? `${notice.requestedByName} of ${notice.organizationName}` : notice.organizationName;
    const message = linkMail(
      notice.recipientEmail,
      `Request for project transfer: ${notice.projectName}`,
      [
        `${by} asks you to take over the project ${notice.projectName} (${notice.projectSlug}) on Faultline.`,
        'Open the link while signed in, and choose one of the organizations you own to receive it.',
        `The link works once, until ${notice.expiresAt}.`,
      ],
      { label: 'Accept the project', url: notice.acceptUrl },
    );
    await this.mail.queue(tx, [
      {
        organizationId: notice.organizationId,
        to: notice.recipientEmail,
        userId: null,
        reason: 'project-transfer',
        cause: `project-transfer:${notice.transferId}`,
        issueId: null,
        message,
      },
    ]);
  };
}
