import { Injectable } from '@nestjs/common';
import type { Transaction } from '@faultline/platform';

/** A transfer link to hand to the owner of the receiving organization. */
export interface ProjectTransferNotice {
  readonly transferId: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly projectSlug: string;
  readonly projectName: string;
  readonly recipientEmail: string;
  readonly requestedByName: string | null;
  /** The accept page with the link's secret: it exists only here, the table keeps its hash. */
  readonly acceptUrl: string;
  readonly expiresAt: string;
}

export type ProjectTransferListener = (tx: Transaction, notice: ProjectTransferNotice) => Promise<void>;

/**
 * Where the transfer link goes, in the requesting transaction: the notifications context registers
 * its mailer here, since the link's secret is never stored and so cannot be read back from an event.
 */
@Injectable()
export class ProjectTransferNotices {
  private readonly listeners: ProjectTransferListener[] = [];

  onRequested(listener: ProjectTransferListener): void {
    this.listeners.push(listener);
  }

  async notify(tx: Transaction, notice: ProjectTransferNotice): Promise<void> {
    for (const listener of this.listeners) await listener(tx, notice);
  }
}
