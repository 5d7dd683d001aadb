import { randomUUID } from 'node:crypto';
import type { Transaction } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { IssueRuleIds } from '../domain';
import { IssueAlertFiresRepository } from './issue-alert-fires.repository';
import { IssueRulesRepository } from './issue-rules.repository';

/** The action interval under concurrency: transactions side by side. */
describe('IssueAlertFiresRepository under concurrency', () => {
  let db: TestDatabase;
  const fires = new IssueAlertFiresRepository();
  let ruleId: string;
  let issueIds: string[];

  beforeAll(async () => {
    db = await openTestDatabase();
    const [org] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    const [project] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [org.id],
    );
    issueIds = [];
    for (let n = 1; n <= 20; n++) {
      const [issue] = await db.database.query<{ id: string }>(
        `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen) VALUES ($1, $2, $3, 't', 'error', 'node', now(), now()) RETURNING id`,
        [project.id, `f${n}`, `WEB-${n}`],
      );
      issueIds.push(String(issue.id));
    }
    const rule = await new IssueRulesRepository().insert(
      db.database,
      String(project.id),
      {
        name: 'every',
        environment: null,
        actionMatch: 'all',
        filterMatch: 'all',
        frequency: 30,
        owner: null,
        filters: [],
        conditions: [{ id: IssueRuleIds.EveryEvent }],
        actions: [{ id: IssueRuleIds.NotifyEvent, uuid: randomUUID() }],
      },
      null,
      new Date(),
    );
    ruleId = String(rule.id);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('of eight batches claiming the same rule for the same issues at once, each issue fires in exactly one', async () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    let arrived = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const batches = Array.from({ length: 8 }, (_, n) =>
      db.database.transaction(async (tx: Transaction) => {
        await tx.query('SELECT 1');
        if (++arrived === 8) release();
        await together;
        // Each batch sees the issues in its own order.
        const order = n % 2 === 0 ? issueIds : [...issueIds].reverse();
        return fires.claim(
          tx,
          order.map((issueId) => ({ ruleId, issueId, frequencyMinutes: 30 })),
          now,
        );
      }),
    );
    const claimed = (await Promise.all(batches)).flatMap((set) => [...set]);
    expect(claimed.sort()).toEqual(issueIds.map((issueId) => `${ruleId}|${issueId}`).sort());

    // Within the interval nothing fires again; past it, everything does, once.
    expect(
      (
        await db.database.transaction((tx) =>
          fires.claim(
            tx,
            issueIds.map((issueId) => ({ ruleId, issueId, frequencyMinutes: 30 })),
            new Date(now.getTime() + 29 * 60_000),
          ),
        )
      ).size,
    ).toBe(0);
    const later = new Date(now.getTime() + 30 * 60_000);
    const again = await Promise.all(
      [0, 1].map(() =>
        db.database.transaction((tx) =>
          fires.claim(
            tx,
            issueIds.map((issueId) => ({ ruleId, issueId, frequencyMinutes: 30 })),
            later,
          ),
        ),
      ),
    );
    expect(again.reduce((n, set) => n + set.size, 0)).toBe(issueIds.length);
  });

  it('a rule deleted since it was cached fires nothing and fails nothing', async () => {
    const candidates = [{ ruleId: '999999', issueId: issueIds[0], frequencyMinutes: 30 }];
    expect((await db.database.transaction((tx) => fires.claim(tx, candidates, new Date()))).size).toBe(0);
  });

  it("answers each rule's last recorded fire, and nothing for a rule that never fired", async () => {
    const first = new Date('2026-11-23T08:00:00.000Z');
    const last = new Date('2026-11-23T09:30:00.000Z');
    await fires.record(db.database, [{ ruleId, projectId: '1', issueId: issueIds[0], eventId: 'a'.repeat(32), causes: [] }], first);
    await fires.record(db.database, [{ ruleId, projectId: '1', issueId: issueIds[1], eventId: 'b'.repeat(32), causes: [] }], last);
    const lastFired = await fires.lastFired(db.database, [ruleId, '999999']);
    expect([...lastFired.entries()]).toEqual([[ruleId, last]]);
    expect((await fires.lastFired(db.database, [])).size).toBe(0);
  });
});
