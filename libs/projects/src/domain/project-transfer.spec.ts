import {
  requireTransferLinkBudget,
  requireUsableTransfer,
  TRANSFER_LINKS_PER_PROJECT_HOUR,
  TransferLinksExhausted,
  refuseTransferTarget,
  transferExpiry,
  type PendingTransfer,
} from './project-transfer';

const now = new Date('2026-03-01T12:00:00.000Z');
const transfer: PendingTransfer = { projectId: '7', fromOrganizationId: '1', recipientUserId: '42', expiresAt: transferExpiry(now), usedAt: null };

describe('project transfer', () => {
  it('expires seven days after it is requested', () => {
    expect(transferExpiry(now).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });

  it('is usable once, before it expires, by its recipient', () => {
    expect(requireUsableTransfer(transfer, '42', now)).toBe(transfer);
    expect(() => requireUsableTransfer(null, '42', now)).toThrow(expect.objectContaining({ code: 'invalid' }));
    expect(() => requireUsableTransfer({ ...transfer, usedAt: now }, '42', now)).toThrow(expect.objectContaining({ code: 'invalid' }));
    expect(() => requireUsableTransfer(transfer, '42', transfer.expiresAt)).toThrow('This transfer link has expired.');
    expect(() => requireUsableTransfer(transfer, '43', now)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('moves only into another organization the recipient owns, without a slug collision', () => {
    expect(() => refuseTransferTarget(transfer, { organizationId: '2', isOwner: true, slugTaken: false })).not.toThrow();
    expect(() => refuseTransferTarget(transfer, null)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => refuseTransferTarget(transfer, { organizationId: '2', isOwner: false, slugTaken: false })).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    );
    expect(() => refuseTransferTarget(transfer, { organizationId: '1', isOwner: true, slugTaken: false })).toThrow(
      expect.objectContaining({ code: 'invalid' }),
    );
    expect(() => refuseTransferTarget(transfer, { organizationId: '2', isOwner: true, slugTaken: true })).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
  });

  it('sends a bounded number of links a project an hour', () => {
    expect(() => requireTransferLinkBudget(TRANSFER_LINKS_PER_PROJECT_HOUR - 1)).not.toThrow();
    expect(() => requireTransferLinkBudget(TRANSFER_LINKS_PER_PROJECT_HOUR)).toThrow(TransferLinksExhausted);
  });
});
