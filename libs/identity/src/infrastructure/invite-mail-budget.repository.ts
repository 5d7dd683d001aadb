import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { decideInviteMail, InviteMailRefused, ORGANIZATION_WINDOW_MS, RECIPIENT_WINDOW_MS, recipientHash } from '../domain/invite-mail-budget';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity-config';

/**
 * The organizations' invitation mail budgets, counted in `identity.invite_mails` so that every API
 * process spends the same budget: the organization's row lock makes the count and the spending one
 * step. Rows outlive their window by nothing: each spending deletes the organization's stale ones.
 */
@Injectable()
export class InviteMailBudget {
  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Spends one mail to `email` in the caller's transaction, or throws InviteMailRefused (the caller's
   * transaction then rolls back, so nothing changes). `newInvite`: the mail adds a pending invitation.
   */
  async spend(tx: Sql, organizationId: string, email: string, newInvite: boolean): Promise<void> {
    const limits = this.config.inviteMails;
    const now = this.clock.now();
    const hash = recipientHash(email);
    // NO KEY UPDATE: serialises spenders without blocking inserts that reference the organization.
    await tx.query(`SELECT 1 FROM identity.organizations WHERE id = $1 FOR NO KEY UPDATE`, [organizationId]);
    const [history] = await tx.query<{ pending: number | null; organization_full_since: Date | null; recipient_full_since: Date | null }>(
      `SELECT CASE WHEN $7::boolean THEN (SELECT count(*)::int FROM (SELECT 1 FROM identity.organization_invites WHERE organization_id = $1 LIMIT $8::int) p) END AS pending,
         (SELECT sent_at FROM identity.invite_mails WHERE organization_id = $1 AND sent_at > $2 AND sent_at <= $6
           ORDER BY sent_at DESC OFFSET $3::int - 1 LIMIT 1) AS organization_full_since,
         (SELECT sent_at FROM identity.invite_mails WHERE organization_id = $1 AND recipient_hash = $4 AND sent_at > $5 AND sent_at <= $6
           ORDER BY sent_at DESC OFFSET $9::int - 1 LIMIT 1) AS recipient_full_since`,
      [
        organizationId,
        new Date(now.getTime() - ORGANIZATION_WINDOW_MS).toISOString(),
        limits.perOrganization,
        hash,
        new Date(now.getTime() - RECIPIENT_WINDOW_MS).toISOString(),
        now.toISOString(),
        newInvite,
        limits.pendingPerOrganization,
        limits.perRecipient,
      ],
    );
    const decision = decideInviteMail(
      { pending: history.pending, organizationFullSince: history.organization_full_since, recipientFullSince: history.recipient_full_since },
      limits,
      now,
    );
    if (!decision.admitted) throw new InviteMailRefused(decision.detail, decision.retryAfterSeconds);
    await tx.execute(`DELETE FROM identity.invite_mails WHERE organization_id = $1 AND sent_at <= $2`, [
      organizationId,
      new Date(now.getTime() - Math.max(RECIPIENT_WINDOW_MS, ORGANIZATION_WINDOW_MS)).toISOString(),
    ]);
    await tx.execute(`INSERT INTO identity.invite_mails (organization_id, recipient_hash, sent_at) VALUES ($1, $2, $3)`, [
      organizationId,
      hash,
      now.toISOString(),
    ]);
  }
}
