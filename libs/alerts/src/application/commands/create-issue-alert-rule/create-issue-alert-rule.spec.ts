import { randomUUID } from 'node:crypto';
import type { EventRecorder } from '@faultline/event-store';
import type { InstallationLookup, InstalledApp } from '@faultline/integrations';
import type { IssueAlertNotifier } from '@faultline/notifications';
import { DomainError, FixedClock } from '@faultline/kernel';
import type { Database, Transaction } from '@faultline/platform';
import { IssueRuleIds } from '../../../domain';
import type { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import type { IssueRuleRow, IssueRulesRepository } from '../../../infrastructure/issue-rules.repository';
import { CreateIssueAlertRuleCommand } from './create-issue-alert-rule.command';
import { CreateIssueAlertRuleHandler } from './create-issue-alert-rule.handler';

const installationUuid = randomUUID();

function setUp(installed: InstalledApp | null = null) {
  const tx = {} as Transaction;
  const database = { transaction: (work: (tx: Transaction) => Promise<unknown>) => work(tx) } as unknown as Database;
  const inserted: unknown[] = [];
  const rules = {
    insert: jest.fn(async (_tx: Transaction, projectId: string, definition: unknown) => {
      inserted.push(definition);
      return { id: '7', project_id: projectId } as IssueRuleRow;
    }),
  } as unknown as IssueRulesRepository;
  const recorded: Array<{ streamId: string; types: string[] }> = [];
  const recorder = {
    record: jest.fn(async (_tx: Transaction, streamId: string, _type: string, events: Array<{ type: string }>) => {
      recorded.push({ streamId, types: events.map((event) => event.type) });
      return [];
    }),
  } as unknown as EventRecorder;
  const forgotten: string[] = [];
  const cache = { forget: (ids: string[]) => forgotten.push(...ids) } as unknown as AlertRuleCache;
  const installations = { find: jest.fn(async () => installed) } as unknown as InstallationLookup;
  // User 42 is the only member; no team exists.
  const notifier = {
    targetProblem: jest.fn(async (_sql: unknown, _org: string, target: { targetType: string; targetIdentifier?: string }) =>
      target.targetType === 'Member' && target.targetIdentifier === '42' ? null : `no such ${target.targetType.toLowerCase()}`,
    ),
  } as unknown as IssueAlertNotifier;
  const handler = new CreateIssueAlertRuleHandler(database, rules, recorder, cache, installations, notifier, new FixedClock(new Date('2026-11-22T12:00:00Z')));
  return { handler, inserted, recorded, forgotten };
}

const valid = { name: 'New issues', actionMatch: 'all', conditions: [{ id: IssueRuleIds.FirstSeenEvent }], actions: [{ id: IssueRuleIds.NotifyEvent }] };

describe('CreateIssueAlertRuleHandler', () => {
  it("stores a valid rule, records IssueAlertRuleCreated on its stream, and forgets the project's cached rules", async () => {
    const { handler, inserted, recorded, forgotten } = setUp();
    const row = await handler.execute(new CreateIssueAlertRuleCommand('1', '3', valid, '5'));
    expect(row.id).toBe('7');
    expect(inserted).toEqual([expect.objectContaining({ name: 'New issues', frequency: 30 })]);
    expect(recorded).toEqual([{ streamId: 'alert-rule-7', types: ['alerts.IssueAlertRuleCreated'] }]);
    expect(forgotten).toEqual(['3']);
  });

  it('refuses an invalid rule and stores nothing', async () => {
    const { handler, inserted, recorded } = setUp();
    await expect(handler.execute(new CreateIssueAlertRuleCommand('1', '3', { ...valid, actions: [] }, null))).rejects.toMatchObject({ code: 'invalid' });
    expect(inserted).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it('refuses an app action whose installation is not live here, or whose app takes no alerts', async () => {
    const appAction = { ...valid, actions: [{ id: IssueRuleIds.NotifyEventSentryApp, sentryAppInstallationUuid: installationUuid, settings: [] }] };
    const missing = setUp(null);
    await expect(missing.handler.execute(new CreateIssueAlertRuleCommand('1', '3', appAction, null))).rejects.toThrow(/no service app installation/);
    expect(missing.inserted).toEqual([]);

    const app = {
      installationUuid,
      organizationId: '1',
      status: 'installed' as const,
      app: { uuid: 'a', slug: 'pager', name: 'Pager', isAlertable: false, alertRuleAction: null },
    };
    const notAlertable = setUp(app);
    await expect(notAlertable.handler.execute(new CreateIssueAlertRuleCommand('1', '3', appAction, null))).rejects.toThrow(DomainError);
    expect(notAlertable.inserted).toEqual([]);

    const alertable = setUp({ ...app, app: { ...app.app, isAlertable: true } });
    await expect(alertable.handler.execute(new CreateIssueAlertRuleCommand('1', '3', appAction, null))).resolves.toMatchObject({ id: '7' });
  });

  it('refuses an e-mail action naming no member or team of the organization, and stores nothing', async () => {
    const { handler, inserted, recorded } = setUp();
    const mail = (target: Record<string, unknown>) => ({ ...valid, actions: [{ id: IssueRuleIds.NotifyEmail, ...target }] });
    await expect(handler.execute(new CreateIssueAlertRuleCommand('1', '3', mail({ targetType: 'Member', targetIdentifier: 43 }), '5'))).rejects.toMatchObject({
      message: 'actions[0]: no such member',
    });
    await expect(handler.execute(new CreateIssueAlertRuleCommand('1', '3', mail({ targetType: 'Team', targetIdentifier: 9 }), '5'))).rejects.toBeInstanceOf(
      DomainError,
    );
    expect(inserted).toEqual([]);
    expect(recorded).toEqual([]);
    await handler.execute(new CreateIssueAlertRuleCommand('1', '3', mail({ targetType: 'Member', targetIdentifier: '42' }), '5'));
    await handler.execute(new CreateIssueAlertRuleCommand('1', '3', mail({ targetType: 'IssueOwners', fallthroughType: 'NoOne' }), '5'));
    expect(inserted).toHaveLength(2);
  });
});
