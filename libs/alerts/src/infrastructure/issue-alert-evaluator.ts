import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type RecordedEvent } from '@faultline/kernel';
import { type ErrorEventProcessedData, IngestEventTypes } from '@faultline/ingest';
import { IssueEventTypes, type IssueUnresolvedData, LatestReleases } from '@faultline/issues';
import { MonitorEventTypes } from '@faultline/monitors';
import { Metrics, type Transaction } from '@faultline/platform';
import { ProjectSessionCounts, sessionsKey } from '@faultline/releases';
import { Counter, Histogram } from 'prom-client';
import { type EventFacts, type IssueRule, intervalSeconds, rulePasses } from '../domain';
import { AlertCountsRepository, countKey } from './alert-counts.repository';
import { AlertDispatcher, type IssueRuleFire } from './alert-dispatcher';
import { AlertRuleCache, type ProjectAlerting } from './alert-rule-cache';
import { IssueAlertFiresRepository } from './issue-alert-fires.repository';

interface Processed {
  readonly data: ErrorEventProcessedData;
}

/** The start of the minute `at` falls in: the buckets of the alert counts. */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

/**
 * Evaluates the issue alert rules of each processed error event inside the transaction that
 * records it (an `EventRecorder.onAppended` handler, so ingest and issues know nothing of alerts):
 * keeps the per-minute counts the frequency conditions and metric rules read, decides which rules
 * pass, applies each rule's action interval durably and queues the notifications. A project
 * without rules costs one cache lookup.
 */
@Injectable()
export class IssueAlertEvaluator {
  /**
   * Regressions and reappearances recorded earlier in the same transaction (issues records them
   * before the processed events), as `issue|event` keys.
   */
  private readonly regressions = new WeakMap<Transaction, Set<string>>();
  private readonly reappearances = new WeakMap<Transaction, Set<string>>();
  private readonly duration: Histogram;
  private readonly fired: Counter;

  constructor(
    private readonly cache: AlertRuleCache,
    private readonly counts: AlertCountsRepository,
    private readonly fires: IssueAlertFiresRepository,
    private readonly dispatcher: AlertDispatcher,
    private readonly sessions: ProjectSessionCounts,
    private readonly latestReleases: LatestReleases,
    @Inject(CLOCK) private readonly clock: Clock,
    metrics: Metrics,
  ) {
    const registers = [metrics.registry];
    this.duration = new Histogram({
      name: 'alert_rule_evaluation_seconds',
      help: 'Time spent per processed batch keeping alert counts and evaluating issue alert rules (batches of projects with rules)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    });
    this.fired = new Counter({ name: 'alert_rule_fires_total', help: 'Issue alert rule fires', registers });
  }

  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    let processed: Processed[] | undefined;
    for (const event of events) {
      // A cron monitor's failure carries an error event's fields: rules treat it as one.
      if (event.type === IngestEventTypes.ErrorEventProcessed || event.type === MonitorEventTypes.MonitorFailureOccurred) {
        (processed ??= []).push({ data: event.data as unknown as ErrorEventProcessedData });
      } else if (event.type === IssueEventTypes.IssueUnresolved) {
        const data = event.data as unknown as IssueUnresolvedData;
        if (!data.eventId || data.reason === 'manual') continue;
        // An expired ignore brings the issue back: Sentry's "reappeared" (archived until escalating).
        const seen = data.reason === 'regression' ? this.regressions : this.reappearances;
        let keys = seen.get(tx);
        if (!keys) seen.set(tx, (keys = new Set()));
        keys.add(`${data.issueId}|${data.eventId}`);
      }
    }
    if (!processed) return;
    const started = performance.now();
    if (await this.evaluate(tx, processed)) this.duration.observe((performance.now() - started) / 1000);
  };

  /** Answers whether the batch concerned any project with rules. */
  private async evaluate(tx: Transaction, processed: readonly Processed[]): Promise<boolean> {
    const projects = await this.cache.forProjects(tx, [...new Set(processed.map((p) => p.data.projectId))]);
    const alerting = (p: Processed) => projects.get(p.data.projectId) as ProjectAlerting;
    const relevant = processed.filter((p) => alerting(p).rules.length > 0 || alerting(p).needs.eventCounts || alerting(p).needs.userCounts);
    if (relevant.length === 0) return false;
    const now = this.clock.now();
    const bucket = minuteOf(now);

    const eventRows = new Map<string, { issueId: string; projectId: string; bucket: Date; environment: string; level: string; events: number }>();
    const userRows = new Map<string, { issueId: string; projectId: string; bucket: Date; environment: string; level: string; user: string }>();
    for (const p of relevant) {
      const { needs } = alerting(p);
      const { issueId, projectId, environment, level, user } = p.data;
      if (needs.eventCounts) {
        const key = `${issueId}|${environment}|${level}`;
        const row = eventRows.get(key);
        if (row) row.events += 1;
        else eventRows.set(key, { issueId, projectId, bucket, environment, level, events: 1 });
      }
      if (needs.userCounts && user) userRows.set(`${issueId}|${environment}|${level}|${user}`, { issueId, projectId, bucket, environment, level, user });
    }

    const withRules = relevant.filter((p) => alerting(p).rules.length > 0);
    const eventWindows = new Set<number>();
    const userWindows = new Set<number>();
    let readState = false;
    const sessionProjects = new Set<string>();
    const releaseProjects = new Set<string>();
    for (const projectId of new Set(withRules.map((p) => p.data.projectId))) {
      const { needs } = projects.get(projectId) as ProjectAlerting;
      for (const seconds of needs.eventWindows) eventWindows.add(seconds);
      for (const seconds of needs.userWindows) userWindows.add(seconds);
      readState ||= needs.issueAge || needs.issueState;
      if (needs.sessions) sessionProjects.add(projectId);
      if (needs.latestRelease) releaseProjects.add(projectId);
    }
    const issueIds = [...new Set(withRules.map((p) => p.data.issueId))];
    const counting = eventWindows.size + userWindows.size > 0;
    const issueEnvironments = new Map<string, { issueId: string; environment: string }>();
    if (counting) for (const { data } of withRules) issueEnvironments.set(`${data.issueId}|${data.environment}`, data);
    // One round trip: the batch's counts in, what the rules read out.
    const read = await this.counts.recordAndRead(tx, {
      events: [...eventRows.values()],
      users: [...userRows.values()],
      countIssues: counting ? issueIds : [],
      countEnvironments: [...issueEnvironments.values()].map(({ issueId, environment }) => ({ issueId, environment })),
      eventWindows: [...eventWindows],
      userWindows: [...userWindows],
      stateIssues: readState ? issueIds : [],
      ruleIssues: issueIds,
      now,
    });
    if (withRules.length === 0) return true;
    const regressed = this.regressions.get(tx);
    this.regressions.delete(tx);
    const reappeared = this.reappearances.get(tx);
    this.reappearances.delete(tx);
    const sessions = await this.sessionsOf(tx, withRules, sessionProjects, now);
    const latest = await this.latestReleasesOf(tx, withRules, releaseProjects);
    const batchEvents = new Map<string, number>();
    for (const { data } of withRules) batchEvents.set(data.issueId, (batchEvents.get(data.issueId) ?? 0) + 1);

    const candidates = new Map<string, { rule: IssueRule; p: Processed }>();
    const position = new Map<string, number>();
    for (const p of withRules) {
      const { issueId, projectId, environment, release } = p.data;
      // The k-th event of the issue in this batch sees the counts before the batch and the first k
      // of it, in all environments (k) and in its own (kInEnvironment).
      const k = (position.get(issueId) ?? 0) + 1;
      position.set(issueId, k);
      const kInEnvironment = (position.get(`${issueId}|${environment}`) ?? 0) + 1;
      position.set(`${issueId}|${environment}`, kInEnvironment);
      const state = read.issues.get(issueId);
      const ownCount = (within: string | null) => (within === null ? k : within === environment ? kInEnvironment : 0);
      const facts: EventFacts = {
        isNewIssue: p.data.isNewIssue,
        isRegression: regressed?.has(`${issueId}|${p.data.eventId}`) ?? false,
        isReappeared: reappeared?.has(`${issueId}|${p.data.eventId}`) ?? false,
        level: p.data.level,
        environment,
        tags: eventTags(p.data),
        attributes: { message: p.data.message, platform: p.data.platform, environment, type: 'error' },
        issueAgeSeconds: state ? Math.max(0, (now.getTime() - state.firstSeen) / 1000) : undefined,
        // The issue's times seen already holds the whole batch: the k-th event sees those before it and itself.
        issueTimesSeen: state ? Math.max(k, state.timesSeen - (batchEvents.get(issueId) ?? 0) + k) : undefined,
        assignee: state?.assignee,
        isLatestRelease: releaseProjects.has(projectId) ? Boolean(release) && latest.get(projectId)?.toLowerCase() === release?.toLowerCase() : undefined,
        eventsIn: (interval, within) => (read.eventsBefore.get(countKey(issueId, intervalSeconds(interval), within)) ?? 0) + ownCount(within),
        usersIn: (interval, within) => read.users.get(countKey(issueId, intervalSeconds(interval), within)) ?? 0,
        sessionsLastHour: sessionProjects.has(projectId) ? (within) => sessions.get(sessionsKey({ projectId, environment: within })) : undefined,
      };
      for (const rule of alerting(p).rules) {
        const key = `${rule.id}|${issueId}`;
        // A rule inside its action interval for the issue cannot fire: not even checked.
        if (!candidates.has(key) && !read.quiet.has(key) && rulePasses(rule, facts)) candidates.set(key, { rule, p });
      }
    }
    if (candidates.size === 0) return true;
    const firing = await this.fires.claim(
      tx,
      [...candidates.values()].map(({ rule, p }) => ({ ruleId: rule.id, issueId: p.data.issueId, frequencyMinutes: rule.frequency })),
      now,
    );
    const fired: IssueRuleFire[] = [];
    for (const [key, { rule, p }] of candidates) {
      if (firing.has(key)) fired.push({ rule, event: p.data });
    }
    const causes = await this.dispatcher.dispatchIssueFires(tx, fired);
    await this.fires.record(
      tx,
      fired.map((fire, index) => ({
        ruleId: fire.rule.id,
        projectId: fire.event.projectId,
        issueId: fire.event.issueId,
        eventId: fire.event.eventId,
        causes: causes[index],
      })),
      now,
    );
    this.fired.inc(fired.length);
    return true;
  }

  /** The latest release of the projects whose rules filter on it, the batch's releases counted as seen. */
  private async latestReleasesOf(tx: Transaction, withRules: readonly Processed[], projectIds: ReadonlySet<string>): Promise<Map<string, string>> {
    if (projectIds.size === 0) return new Map();
    const seenNow = new Map<string, string[]>([...projectIds].map((projectId) => [projectId, []]));
    for (const { data } of withRules) if (data.release) seenNow.get(data.projectId)?.push(data.release);
    return this.latestReleases.ofProjects(
      tx,
      [...seenNow].map(([projectId, releases]) => ({ projectId, seenNow: releases })),
    );
  }

  /** The last hour's sessions of the projects whose rules weigh events against them: in all environments and in each event's. */
  private async sessionsOf(tx: Transaction, withRules: readonly Processed[], projectIds: ReadonlySet<string>, now: Date): Promise<Map<string, number>> {
    if (projectIds.size === 0) return new Map();
    const queries = new Map<string, { projectId: string; environment: string | null }>();
    for (const { data } of withRules) {
      if (!projectIds.has(data.projectId)) continue;
      for (const environment of [null, data.environment]) {
        const query = { projectId: data.projectId, environment };
        queries.set(sessionsKey(query), query);
      }
    }
    return this.sessions.startedInLastHour(tx, [...queries.values()], now);
  }
}

/** The tags Sentry's TaggedEventFilter matches: the event's own and the ones Sentry adds. */
function eventTags(data: ErrorEventProcessedData): Array<readonly [string, string]> {
  const tags: Array<readonly [string, string]> = [...data.tags, ['level', data.level]];
  if (data.environment && !data.tags.some(([key]) => key === 'environment')) tags.push(['environment', data.environment]);
  if (data.release && !data.tags.some(([key]) => key === 'release')) tags.push(['release', data.release]);
  if (data.user) tags.push(['user', data.user]);
  return tags;
}
