import type { EventRecorder } from '@faultline/event-store';
import type { InstallationLookup } from '@faultline/integrations';
import { FixedClock } from '@faultline/kernel';
import type { Database, Transaction } from '@faultline/platform';
import type { MetricRuleDefinition } from '../../../domain';
import type { AlertRuleCache } from '../../../infrastructure/alert-rule-cache';
import type { MetricRuleRow, MetricRulesRepository } from '../../../infrastructure/metric-rules.repository';
import { UpdateMetricAlertRuleCommand } from './update-metric-alert-rule.command';
import { UpdateMetricAlertRuleHandler } from './update-metric-alert-rule.handler';

const existing: MetricRuleRow = {
  id: '4',
  organization_id: '1',
  name: 'Spike',
  aggregate: 'count()',
  query: '',
  time_window: 10,
  threshold_type: 0,
  resolve_threshold: null,
  project_ids: ['3'],
  project_slugs: ['web'],
  environment: null,
  owner: null,
  created_by: null,
  created_at: new Date('2026-11-22T10:00:00Z'),
  updated_at: new Date('2026-11-22T10:00:00Z'),
  triggers: [{ id: '11', label: 'critical', alertThreshold: 100, actions: [] }],
};

function setUp() {
  const tx = {
    query: jest.fn(async (sql: string) =>
      sql.includes('FROM projects.project_directory')
        ? [
            { id: '3', slug: 'web' },
            { id: '8', slug: 'api' },
          ]
        : [],
    ),
  } as unknown as Transaction;
  const database = { transaction: (work: (tx: Transaction) => Promise<unknown>) => work(tx) } as unknown as Database;
  let next = 100;
  const saved: Array<{ projectIds: readonly string[]; definition: MetricRuleDefinition }> = [];
  const rules = {
    find: jest.fn(async () => existing),
    nextIds: jest.fn(async (_tx: Transaction, count: number) => Array.from({ length: count }, () => String(++next))),
    update: jest.fn(async (_tx: Transaction, _org: string, _id: string, projectIds: readonly string[], definition: MetricRuleDefinition) => {
      saved.push({ projectIds, definition });
      return { ...existing, project_ids: [...projectIds] };
    }),
  } as unknown as MetricRulesRepository;
  const recorder = { record: jest.fn(async () => []) } as unknown as EventRecorder;
  const forgotten: string[] = [];
  const cache = { forget: (ids: string[]) => forgotten.push(...ids) } as unknown as AlertRuleCache;
  const installations = { find: jest.fn(async () => null) } as unknown as InstallationLookup;
  const handler = new UpdateMetricAlertRuleHandler(database, rules, recorder, cache, installations, new FixedClock(new Date('2026-11-22T12:00:00Z')));
  return { handler, saved, forgotten, recorder };
}

describe('UpdateMetricAlertRuleHandler', () => {
  it('keeps the fields it is not sent, keeps its own trigger ids, and numbers new or foreign ones afresh', async () => {
    const { handler, saved, forgotten, recorder } = setUp();
    await handler.execute(
      new UpdateMetricAlertRuleCommand(
        '1',
        '4',
        {
          projects: ['web', 'api'],
          triggers: [
            { id: '11', label: 'critical', alertThreshold: 200 },
            { id: '999', label: 'warning', alertThreshold: 50 },
          ],
        },
        '5',
      ),
    );
    expect(saved).toHaveLength(1);
    const [{ projectIds, definition }] = saved;
    expect(projectIds).toEqual(['3', '8']);
    expect(definition).toMatchObject({ name: 'Spike', aggregate: 'count()', timeWindow: 10 });
    expect(definition.triggers.map((t) => [t.label, t.id, t.alertThreshold])).toEqual([
      ['critical', '11', 200],
      ['warning', '101', 50],
    ]);
    expect(forgotten.sort()).toEqual(['3', '3', '8']);
    expect(recorder.record).toHaveBeenCalledWith(expect.anything(), 'metric-alert-rule-4', 'metric-alert-rule', [
      expect.objectContaining({ type: 'alerts.MetricAlertRuleUpdated' }),
    ]);
  });

  it('refuses a project of another organization (or none) by name', async () => {
    const { handler, saved } = setUp();
    await expect(handler.execute(new UpdateMetricAlertRuleCommand('1', '4', { projects: ['elsewhere'] }, null))).rejects.toThrow(/Invalid project elsewhere/);
    expect(saved).toEqual([]);
  });
});
