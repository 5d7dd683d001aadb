import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import { newHexId } from '@faultline/kernel';
import { type IssueOccurrence, IssueOccurrences } from '@faultline/issues';
import type { Transaction } from '@faultline/platform';
import {
  failureThreshold,
  type MonitorConfig,
  MONITOR_FAILURE_STREAM_TYPE,
  monitorFailureOccurred,
  monitorFailureStream,
  recoveryThreshold,
  type RunEffect,
  type RunOutcome,
} from '../domain';
import { MonitorEnvironmentsRepository } from '../infrastructure/monitor-environments.repository';
import { MonitorsRepository } from '../infrastructure/monitors.repository';

/** What a run's end needs to know of its monitor. */
export interface RunMonitor {
  readonly id: string;
  readonly guid: string;
  readonly organizationId: string;
  readonly projectId: string;
  readonly slug: string;
  readonly name: string;
  readonly isMuted: boolean;
  readonly config: MonitorConfig;
}

export interface EndedRun {
  readonly environmentId: string;
  readonly environment: string;
  readonly checkInGuid: string;
  readonly outcome: RunOutcome;
  /** When the run started (a missed run: when it was expected). */
  readonly at: Date;
}

/** Sentry's issue type of a cron monitor's failure. */
export const MONITOR_FAILURE_ISSUE_TYPE = 'monitor_check_in_failure';

/** Why the monitor failed, as Sentry words it in the issue. */
function reasonOf(run: EndedRun, config: MonitorConfig): string {
  switch (run.outcome) {
    case 'missed':
      return `No check-in reported on ${run.at.toISOString()}.`;
    case 'timeout':
      return `Check-in exceeded maximum duration of ${config.max_runtime ?? 30} minutes.`;
    default:
      return 'An error check-in was detected.';
  }
}

/**
 * What the end of a run does, wherever it was seen (a check-in, or the sweep finding it missed or
 * timed out): the environment counts it against the monitor's thresholds, and a failure opens (or
 * adds to) the monitor environment's issue unless muted; a recovery resolves it. All in the
 * caller's transaction.
 */
@Injectable()
export class MonitorRuns {
  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly environments: MonitorEnvironmentsRepository,
    private readonly occurrences: IssueOccurrences,
    private readonly recorder: EventRecorder,
  ) {}

  async ended(tx: Transaction, monitor: RunMonitor, run: EndedRun, receivedAt: Date): Promise<RunEffect> {
    const thresholds = { failure: failureThreshold(monitor.config), recovery: recoveryThreshold(monitor.config) };
    const {
      aggregate,
      result: effect,
      recorded,
    } = await this.environments.decide(tx, run.environmentId, (environment) =>
      environment.recordRun({ checkInId: run.checkInGuid, outcome: run.outcome, at: run.at.toISOString() }, thresholds),
    );
    if (recorded.length > 0) await this.monitors.setEnvironmentState(tx, run.environmentId, { status: aggregate.status, isMuted: aggregate.isMuted });
    const groupKey = `${monitor.guid}/${run.environment}`;
    if (effect === 'recovered') {
      await this.occurrences.resolve(tx, monitor.projectId, MONITOR_FAILURE_ISSUE_TYPE, groupKey, receivedAt.toISOString());
    } else if ((effect === 'failed' || effect === 'failing') && !aggregate.isMuted && !monitor.isMuted) {
      await this.recordFailure(tx, monitor, run, groupKey, receivedAt);
    }
    return effect;
  }

  /** A failure occurrence in the monitor environment's issue, published for alert rules. */
  private async recordFailure(tx: Transaction, monitor: RunMonitor, run: EndedRun, groupKey: string, receivedAt: Date): Promise<void> {
    const project = (await this.monitors.projectsById(tx, [monitor.projectId])).get(monitor.projectId);
    if (!project) return;
    const occurrence: IssueOccurrence = {
      projectId: monitor.projectId,
      projectSlug: project.slug,
      organizationId: monitor.organizationId,
      issueType: MONITOR_FAILURE_ISSUE_TYPE,
      groupKey,
      eventId: newHexId(),
      title: `Cron failure: ${monitor.name}`,
      culprit: reasonOf(run, monitor.config),
      level: 'error',
      environment: run.environment,
      occurredAt: run.at.toISOString(),
      receivedAt: receivedAt.toISOString(),
      tags: [
        ['monitor.id', monitor.guid],
        ['monitor.slug', monitor.slug],
      ],
      contexts: {
        monitor: { id: monitor.guid, slug: monitor.slug, name: monitor.name, config: monitor.config, status: run.outcome },
      },
    };
    const stored = await this.occurrences.record(tx, occurrence);
    if (stored) {
      await this.recorder.recordNewStreams(tx, [
        {
          streamId: monitorFailureStream(occurrence.projectId, occurrence.eventId),
          streamType: MONITOR_FAILURE_STREAM_TYPE,
          event: monitorFailureOccurred({
            projectId: occurrence.projectId,
            projectSlug: occurrence.projectSlug,
            organizationId: occurrence.organizationId,
            issueId: stored.issueId,
            isNewIssue: stored.isNewIssue,
            eventId: occurrence.eventId,
            title: occurrence.title,
            culprit: occurrence.culprit,
            message: occurrence.culprit,
            level: occurrence.level,
            platform: 'other',
            datetime: occurrence.occurredAt,
            release: null,
            environment: occurrence.environment,
            tags: occurrence.tags.map(([key, value]) => [key, value]),
            user: null,
            monitorSlug: monitor.slug,
          }),
        },
      ]);
    }
  }
}
