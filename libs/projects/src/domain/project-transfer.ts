import { DomainError } from '@faultline/kernel';

/** How long a transfer link works (Sentry's signed link lasts a week). */
export const TRANSFER_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** A requested transfer as acceptance judges it. */
export interface PendingTransfer {
  readonly projectId: string;
  readonly fromOrganizationId: string;
  readonly recipientUserId: string;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

/** The organization chosen to receive the project, as the recipient sees it. */
export interface TransferTarget {
  readonly organizationId: string;
  readonly isOwner: boolean;
  readonly slugTaken: boolean;
}

/** Transfer links one project may send an hour: each is a mail to an address the requester chose. */
export const TRANSFER_LINKS_PER_PROJECT_HOUR = 10;
export const TRANSFER_LINK_WINDOW_MS = 60 * 60 * 1000;

/** The project has sent as many transfer links as an hour allows (HTTP 429). */
export class TransferLinksExhausted extends Error {
  constructor() {
    super(`A project sends at most ${TRANSFER_LINKS_PER_PROJECT_HOUR} transfer links an hour; try again later.`);
    this.name = 'TransferLinksExhausted';
  }
}

export function requireTransferLinkBudget(sentInWindow: number): void {
  if (sentInWindow >= TRANSFER_LINKS_PER_PROJECT_HOUR) throw new TransferLinksExhausted();
}

export const transferExpiry = (now: Date): Date => new Date(now.getTime() + TRANSFER_LIFETIME_MS);

/** Whether the link may still be opened: not used, not expired, and opened by the owner it was sent to. */
export function requireUsableTransfer<T extends PendingTransfer>(transfer: T | null, userId: string, now: Date): T {
  if (!transfer || transfer.usedAt !== null) throw DomainError.invalid('This transfer link has already been used or does not exist.');
  if (transfer.expiresAt.getTime() <= now.getTime()) throw DomainError.invalid('This transfer link has expired.');
  if (transfer.recipientUserId !== userId) throw DomainError.forbidden('This transfer link was sent to another user.');
  return transfer;
}

/**
 * Whether the project may move into the chosen organization: the recipient must own it, it must
 * be another organization than the project's, and it must not already have a project of that slug.
 */
export function refuseTransferTarget<T extends TransferTarget>(transfer: PendingTransfer, target: T | null): asserts target is T {
  if (!target || !target.isOwner) throw DomainError.forbidden('You must be an owner of the organization that receives the project.');
  if (target.organizationId === transfer.fromOrganizationId) throw DomainError.invalid('The project already belongs to this organization.');
  if (target.slugTaken) throw DomainError.conflict('A project with this slug already exists in the receiving organization.');
}

/** The page a transfer link opens (Sentry's path). */
export const acceptTransferUrl = (publicUrl: string, token: string): string => `${publicUrl}/accept-transfer/?data=${encodeURIComponent(token)}`;
