import { FixedClock } from '@faultline/kernel';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { InviteMailRefused } from '../domain/invite-mail-budget';
import { identityConfig } from './identity-config';
import { InviteMailBudget } from './invite-mail-budget.repository';

describe('InviteMailBudget', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('lets concurrent spenders (as in several API processes) send no more than the budget between them', async () => {
    const [{ id: organizationId }] = await db.database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('race', 'Race') RETURNING id`,
    );
    const clock = new FixedClock(new Date('2030-03-01T00:00:00Z'));
    const config = identityConfig({ INVITE_MAILS_PER_ORGANIZATION_HOUR: '5' });
    // One budget object per "process": they share nothing but the database.
    const spenders = Array.from({ length: 12 }, () => new InviteMailBudget(config, clock));
    const outcomes = await Promise.allSettled(
      spenders.map((budget, i) => db.database.transaction((tx) => budget.spend(tx, String(organizationId), `person-${i}@example.test`, true))),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    const refusals = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected').map((outcome) => outcome.reason);
    expect(refusals).toHaveLength(7);
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(InviteMailRefused);
    const [{ sent }] = await db.database.query<{ sent: number }>(`SELECT count(*)::int AS sent FROM identity.invite_mails WHERE organization_id = $1`, [
      organizationId,
    ]);
    expect(sent).toBe(5);

    // A day later the stale rows go as the organization sends again.
    clock.advance(86_400_000);
    await db.database.transaction((tx) => spenders[0].spend(tx, String(organizationId), 'later@example.test', true));
    const [{ kept }] = await db.database.query<{ kept: number }>(`SELECT count(*)::int AS kept FROM identity.invite_mails WHERE organization_id = $1`, [
      organizationId,
    ]);
    expect(kept).toBe(1);
  });
});
