import { Inject, Injectable, Logger } from '@nestjs/common';
import { newUuid } from '@faultline/kernel';
import { Database, holdsUnstorableText, type Transaction, UNSTORABLE_TEXT_DETAIL } from '@faultline/platform';
import { MonitorRuns, type RunMonitor } from '../application/monitor-runs';
import { type CheckInReceipt, type CheckInSubmission, MonitorCheckInIntake } from '../contracts/monitor-check-in-intake';
import { type CheckInReport, MonitorEnvironment, nextExpected, readCheckIn, runDurationMs, timeoutAt } from '../domain';
import { MonitorEnvironmentsRepository } from './monitor-environments.repository';
import { MONITORS_CONFIG, type MonitorsConfig } from './monitors-config';
import { type MonitorRow, MonitorsRepository } from './monitors.repository';

type Outcome = 'recorded' | 'repeat' | { dropped: string; invalid?: true };

/** How long a closing check-in waits for the check-in that creates its monitor. */
const UNPAIRED_WINDOW_MS = 5 * 60_000;

export const runMonitorOf = (row: MonitorRow): RunMonitor => ({
  id: row.id,
  guid: row.guid,
  organizationId: row.organization_id,
  projectId: row.project_id,
  slug: row.slug,
  name: row.name,
  isMuted: row.is_muted,
  config: row.config,
});

/**
 * Sentry's check-in processing (`consumers/monitor_consumer.py`): upsert the monitor from
 * `monitor_config`, find or create the environment, pair a closing check-in with its in-progress
 * one by id, schedule the next expected run, and count the run's end. Each check-in is one
 * transaction holding its environment's row, so check-ins and the sweep never act on one
 * environment at once.
 */
@Injectable()
export class CheckInIntakeService extends MonitorCheckInIntake {
  private readonly logger = new Logger('MonitorCheckIns');

  constructor(
    private readonly database: Database,
    private readonly monitors: MonitorsRepository,
    private readonly environments: MonitorEnvironmentsRepository,
    private readonly runs: MonitorRuns,
    @Inject(MONITORS_CONFIG) private readonly config: MonitorsConfig,
  ) {
    super();
  }

  async record(checkIns: readonly CheckInSubmission[]): Promise<CheckInReceipt> {
    let accepted = 0;
    let dropped = 0;
    const invalid: string[] = [];
    for (const submission of checkIns) {
      const outcome = await this.recordOne(submission);
      if (typeof outcome === 'object') {
        dropped++;
        if (outcome.invalid) invalid.push(outcome.dropped);
        this.logger.debug(`check-in dropped for project ${submission.projectId}: ${outcome.dropped}`);
      } else accepted++;
    }
    return { accepted, dropped, invalid };
  }

  private async recordOne(submission: CheckInSubmission): Promise<Outcome> {
    let payload: unknown;
    try {
      payload = JSON.parse(submission.payload.toString('utf8'));
    } catch {
      return { dropped: 'check-in is not JSON', invalid: true };
    }
    if (holdsUnstorableText(payload)) return { dropped: UNSTORABLE_TEXT_DETAIL, invalid: true };
    const report = readCheckIn(payload);
    if ('problem' in report) return { dropped: report.problem, invalid: true };
    const receivedAt = new Date(submission.receivedAt);
    return this.database.transaction((tx) => this.apply(tx, submission, report, receivedAt));
  }

  private async apply(tx: Transaction, submission: CheckInSubmission, report: CheckInReport, receivedAt: Date): Promise<Outcome> {
    const monitor = await this.upsertMonitor(tx, submission, report, receivedAt);
    if ('dropped' in monitor) {
      if (report.status === 'in_progress' || report.monitorConfig) return monitor;
      // Perhaps the closing check-in of a run whose first check-in, creating the monitor, is on its way.
      const kept = await this.monitors.keepUnpaired(
        tx,
        {
          organizationId: submission.organizationId,
          projectId: submission.projectId,
          monitorSlug: report.monitorSlug,
          guid: uuidOf(report.checkInId),
          environment: report.environment,
          status: report.status,
          durationMs: report.durationMs,
          at: receivedAt,
        },
        new Date(receivedAt.getTime() - UNPAIRED_WINDOW_MS),
        this.config.unpairedCheckInsPerOrganization,
      );
      return kept ? 'recorded' : monitor;
    }
    if (monitor.project_id !== submission.projectId) return { dropped: 'the monitor belongs to another project' };
    if (monitor.status === 'disabled') return { dropped: 'the monitor is disabled' };

    const { row: environment, created } = await this.monitors.lockEnvironment(
      tx,
      monitor.id,
      report.environment,
      receivedAt,
      async () => (await this.monitors.environmentCount(tx, monitor.id)) < this.config.environmentsPerMonitor,
    );
    if (!environment) return { dropped: `the monitor has its ${this.config.environmentsPerMonitor} environments` };
    if (created)
      await this.environments.create(
        tx,
        MonitorEnvironment.create({ id: environment.id, monitorId: monitor.id, environment: report.environment, at: receivedAt.toISOString() }),
      );

    const existing = await this.monitors.findCheckIn(tx, monitor.id, report.checkInId);
    if (existing) {
      // Only a run still in progress can be closed, once, in its own environment.
      if (existing.status !== 'in_progress' || report.status === 'in_progress' || existing.monitor_environment_id !== environment.id) return 'repeat';
      const durationMs = runDurationMs(report.durationMs, new Date(existing.date_created), receivedAt);
      await this.monitors.closeCheckIn(tx, existing.id, report.status, durationMs, receivedAt);
      await this.runs.ended(
        tx,
        runMonitorOf(monitor),
        {
          environmentId: environment.id,
          environment: environment.environment,
          checkInGuid: existing.guid,
          outcome: report.status,
          at: new Date(existing.date_created),
        },
        receivedAt,
      );
      return 'recorded';
    }

    const since = new Date(receivedAt.getTime() - 60_000);
    if ((await this.monitors.recentCheckIns(tx, monitor.id, since, this.config.checkInsPerMonitorMinute)) >= this.config.checkInsPerMonitorMinute)
      return { dropped: `over ${this.config.checkInsPerMonitorMinute} check-ins a minute` };
    const guid = uuidOf(report.checkInId);
    const inserted = await this.monitors.insertCheckIn(tx, {
      guid,
      monitorId: monitor.id,
      environmentId: environment.id,
      status: report.status,
      durationMs: report.status === 'in_progress' ? null : report.durationMs,
      at: receivedAt,
      expectedTime: environment.next_checkin,
      timeoutAt: report.status === 'in_progress' ? timeoutAt(receivedAt, monitor.config) : null,
      config: monitor.config,
    });
    if (!inserted) return 'repeat';
    const { next, latest } = nextExpected(receivedAt, monitor.config);
    await this.monitors.scheduled(tx, environment.id, { lastCheckIn: receivedAt, next, latest });
    const closing =
      report.status === 'in_progress'
        ? await this.monitors.takeUnpaired(tx, submission.organizationId, monitor.slug, guid, new Date(receivedAt.getTime() - UNPAIRED_WINDOW_MS))
        : undefined;
    if (closing && closing.environment === environment.environment && closing.project_id === monitor.project_id) {
      const closedAt = new Date(closing.received_at);
      const started = closedAt < receivedAt ? closedAt : receivedAt;
      await this.monitors.closeCheckIn(tx, inserted, closing.status, runDurationMs(closing.duration, started, closedAt), receivedAt);
      await this.runs.ended(
        tx,
        runMonitorOf(monitor),
        { environmentId: environment.id, environment: environment.environment, checkInGuid: guid, outcome: closing.status, at: receivedAt },
        receivedAt,
      );
    } else if (report.status !== 'in_progress') {
      await this.runs.ended(
        tx,
        runMonitorOf(monitor),
        { environmentId: environment.id, environment: environment.environment, checkInGuid: guid, outcome: report.status, at: receivedAt },
        receivedAt,
      );
    }
    return 'recorded';
  }

  /** The check-in's monitor: created or reconfigured by its `monitor_config` (within the organization's budget), else as it is. */
  private async upsertMonitor(tx: Transaction, submission: CheckInSubmission, report: CheckInReport, at: Date): Promise<MonitorRow | { dropped: string }> {
    let found = await this.monitors.find(tx, submission.organizationId, report.monitorSlug, true);
    if (!report.monitorConfig) {
      if (found) return found;
      // SDKs send a run's closing check-in (without monitor_config) right after the one that creates
      // the monitor: if that one is being recorded, wait for it rather than drop this one.
      await this.monitors.lockOrganization(tx, submission.organizationId);
      found = await this.monitors.find(tx, submission.organizationId, report.monitorSlug, true);
      return found ?? { dropped: `no monitor "${report.monitorSlug}" and no monitor_config to create it` };
    }
    if (found) {
      if (JSON.stringify(found.config) === JSON.stringify(report.monitorConfig) || found.project_id !== submission.projectId) return found;
      return (await this.monitors.update(tx, found.id, {
        slug: found.slug,
        name: found.name,
        status: found.status,
        isMuted: found.is_muted,
        config: report.monitorConfig,
        projectId: found.project_id,
      })) as MonitorRow;
    }
    await this.monitors.lockOrganization(tx, submission.organizationId);
    if ((await this.monitors.count(tx, submission.organizationId)) >= this.config.monitorsPerOrganization)
      return { dropped: `the organization has its ${this.config.monitorsPerOrganization} monitors` };
    const inserted = await this.monitors.insert(tx, {
      guid: newUuid(),
      organizationId: submission.organizationId,
      projectId: submission.projectId,
      slug: report.monitorSlug,
      name: report.monitorSlug,
      status: 'active',
      isMuted: false,
      config: report.monitorConfig,
      at,
    });
    return inserted ?? ((await this.monitors.find(tx, submission.organizationId, report.monitorSlug, true)) as MonitorRow);
  }
}

/** A check-in id (32 hex digits) as the UUID it is stored as. */
function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
