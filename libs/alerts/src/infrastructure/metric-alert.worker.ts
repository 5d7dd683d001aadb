import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, PollingLoop, type RecordedEvent } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type BackgroundWorker, Database, type Transaction } from '@faultline/platform';
import { MetricAlertEvaluation } from '../contracts/metric-alert-evaluation';
import { decideIncident, Incident, type IncidentStatus, statusAfter, type IncidentEvent } from '../domain';
import { AlertCountsRepository } from './alert-counts.repository';
import { AlertDispatcher } from './alert-dispatcher';
import { incidentView, IncidentsRepository, type IncidentRow } from './incidents.repository';
import { metricRuleView, MetricRulesRepository, type MetricRuleRow } from './metric-rules.repository';
import { parseMetricQuery } from '../application/metric-query';

const BATCH_SIZE = 50;
const IDLE_POLL_MS = 5_000;

/**
 * Evaluates metric alert rules on a schedule: claims due rules (FOR UPDATE SKIP LOCKED, so worker
 * processes share them and none is evaluated twice at once), reads every claimed rule's value in
 * one statement, and moves each rule's incident as Sentry's trigger logic decides. A move, its
 * event on the incident's stream, its activity row and its webhooks commit together with the
 * rule's next evaluation time, so a crash repeats or loses nothing.
 */
@Injectable()
export class MetricAlertWorker extends MetricAlertEvaluation implements BackgroundWorker {
  readonly name = 'alerts.metric-evaluator';
  private readonly logger = new Logger('MetricAlertWorker');
  private readonly loop = new PollingLoop({
    runOnce: async () => (await this.evaluateBatch()) === BATCH_SIZE,
    idleDelayMs: IDLE_POLL_MS,
    onError: (error) => this.logger.error(`metric alert evaluation failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    private readonly rules: MetricRulesRepository,
    private readonly counts: AlertCountsRepository,
    private readonly incidents: IncidentsRepository,
    private readonly dispatcher: AlertDispatcher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  async evaluateDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const evaluated = await this.evaluateBatch();
      total += evaluated;
      if (evaluated > 0) continue;
      if (!(await this.rules.anyDue(this.database, this.clock.now()))) return total;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async evaluateBatch(): Promise<number> {
    return this.database.transaction(async (tx) => {
      const now = this.clock.now();
      const claimed = await this.rules.claimDue(tx, now, BATCH_SIZE);
      if (claimed.length === 0) return 0;
      const values = await this.counts.metricValues(
        tx,
        claimed.map((row) => ({
          id: String(row.id),
          projectIds: row.project_ids.map(String),
          aggregate: row.aggregate,
          timeWindow: row.time_window,
          environment: row.environment,
          filter: parseMetricQuery(row.query),
        })),
        now,
      );
      const active = new Map(
        (
          await this.incidents.activeOf(
            tx,
            claimed.map((row) => String(row.id)),
          )
        ).map((row) => [String(row.rule_id), row]),
      );
      const slugs = await this.organizationSlugs(
        tx,
        claimed.map((row) => String(row.organization_id)),
      );
      for (const row of claimed) {
        const value = values.get(String(row.id)) ?? 0;
        await this.apply(tx, row, active.get(String(row.id)), value, now, slugs.get(String(row.organization_id)) ?? '');
      }
      await this.rules.evaluated(
        tx,
        claimed.map((row) => ({ id: String(row.id), value: values.get(String(row.id)) ?? 0 })),
        new Date(now.getTime() + this.config.alerts.metricEvaluationSeconds * 1000),
      );
      return claimed.length;
    });
  }

  private async apply(tx: Transaction, row: MetricRuleRow, active: IncidentRow | undefined, value: number, now: Date, organizationSlug: string): Promise<void> {
    const rule = metricRuleView(row);
    const target = decideIncident(rule, active?.status, value);
    if (target === 'unchanged') return;
    const at = now.toISOString();
    const metadata = { actorType: 'system' as const, actorId: 'metric-alerts' };
    let incident: Incident;
    let recorded: readonly RecordedEvent[];
    let row_: { id: string; identifier: number; title: string; started: Date };
    if (active) {
      const decided = await this.incidents.decide(tx, String(active.id), (current) => current.move(target, value, at), metadata);
      if (!decided) throw new Error(`incident ${active.id} has no stream`);
      ({ aggregate: incident, recorded } = decided);
      row_ = { id: String(active.id), identifier: active.identifier, title: active.title, started: new Date(active.date_started) };
    } else {
      if (target === 'resolved') return;
      const { id, identifier } = await this.incidents.allocate(tx, rule.organizationId);
      incident = Incident.open({
        id,
        organizationId: rule.organizationId,
        ruleId: rule.id,
        identifier,
        title: rule.name,
        level: target,
        value,
        at,
      });
      await this.incidents.insert(tx, { id, organizationId: rule.organizationId, identifier, ruleId: rule.id, title: rule.name, status: 'open', at: now });
      recorded = await this.incidents.create(tx, incident, metadata);
      row_ = { id, identifier, title: rule.name, started: now };
    }
    const final = incident.status;
    await this.incidents.setStatus(tx, row_.id, final, final === 'resolved' ? now : null);
    let previous: IncidentStatus | null = active?.status ?? null;
    for (const event of recorded) {
      const status = statusAfter(event as unknown as IncidentEvent);
      const view = {
        ...incidentView({
          id: row_.id,
          organization_id: rule.organizationId,
          identifier: row_.identifier,
          rule_id: rule.id,
          title: row_.title,
          status: final,
          date_started: row_.started,
          date_detected: row_.started,
          date_closed: final === 'resolved' ? now : null,
        }),
      };
      const causes = await this.dispatcher.dispatchIncidentMove(tx, {
        organizationId: rule.organizationId,
        organizationSlug,
        rule,
        incident: view,
        status,
        value,
        eventId: event.eventId,
      });
      await this.incidents.addActivity(tx, [{ incidentId: row_.id, eventId: event.eventId, previousStatus: previous, status, value, at: now, causes }]);
      previous = status;
    }
  }

  private async organizationSlugs(tx: Transaction, organizationIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await tx.query<{ id: string; slug: string }>(`SELECT id, slug FROM identity.organization_directory WHERE id = ANY($1::bigint[])`, [
      [...new Set(organizationIds)],
    ]);
    return new Map(rows.map((row) => [String(row.id), row.slug]));
  }
}
