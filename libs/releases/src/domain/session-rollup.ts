import type { SessionInput } from '../contracts/session-intake';

/**
 * Release health is kept as counts per project, release, environment and hour (sessions started,
 * errored, abnormal, crashed), and as exact sets per hour of the users seen and of the session ids
 * that errored: the set makes an errored session count once however many updates say so (as
 * Relay's `e:sessions/error` set does), and distinct users are counted over any time range.
 */

export const HOUR_MS = 3_600_000;

/** Which set a member belongs to (stored as a small integer). */
export const SessionMemberKind = {
  /** A user with a session started. */
  user: 0,
  /** A user with an errored (or worse) session. */
  erroredUser: 1,
  abnormalUser: 2,
  crashedUser: 3,
  /** A single session that errored. */
  erroredSession: 4,
} as const;
export type SessionMemberKind = (typeof SessionMemberKind)[keyof typeof SessionMemberKind];

export interface SessionBucketKey {
  readonly organizationId: string;
  readonly projectId: string;
  readonly release: string;
  /** '' when the SDK sent none. */
  readonly environment: string;
  /** ISO start of the hour. */
  readonly bucket: string;
}

export interface SessionCounts extends SessionBucketKey {
  started: number;
  /** Errored sessions of aggregates; single sessions' are added when their id is new to the set. */
  errored: number;
  abnormal: number;
  crashed: number;
}

export interface SessionMember extends SessionBucketKey {
  readonly kind: SessionMemberKind;
  /** The id as sent; stored as its 64-bit hash (PostgreSQL's `hashtextextended`), so the event loop hashes nothing. */
  readonly member: string;
}

export interface SessionRollup {
  readonly counts: SessionCounts[];
  readonly members: SessionMember[];
}

export const hourOf = (time: string): string => new Date(Math.floor(Date.parse(time) / HOUR_MS) * HOUR_MS).toISOString();

/** Folds a batch of sessions into one counts row per bucket key and its distinct set members. */
export function foldSessions(sessions: readonly SessionInput[]): SessionRollup {
  const counts = new Map<string, SessionCounts>();
  const members = new Map<string, SessionMember>();
  const addMember = (key: SessionBucketKey & { id: string }, kind: SessionMemberKind, member: string) => {
    members.set(`${key.id}\u0000${kind}\u0000${member}`, { ...key, kind, member });
  };
  for (const session of sessions) {
    const key: SessionBucketKey = {
      organizationId: session.organizationId,
      projectId: session.projectId,
      release: session.release,
      environment: session.environment ?? '',
      bucket: hourOf(session.started),
    };
    const id = JSON.stringify([key.projectId, key.bucket, key.release, key.environment]);
    const row = counts.get(id) ?? { ...key, started: 0, errored: 0, abnormal: 0, crashed: 0 };
    counts.set(id, row);
    const keyed = { ...key, id };
    row.started += session.total;
    row.abnormal += session.abnormal;
    row.crashed += session.crashed;
    if (session.sessionId === null) row.errored += session.errored;
    else if (session.errored > 0) addMember(keyed, SessionMemberKind.erroredSession, session.sessionId);

    if (session.distinctId === null) continue;
    if (session.total > 0) addMember(keyed, SessionMemberKind.user, session.distinctId);
    if (session.errored > 0) addMember(keyed, SessionMemberKind.erroredUser, session.distinctId);
    if (session.abnormal > 0) addMember(keyed, SessionMemberKind.abnormalUser, session.distinctId);
    if (session.crashed > 0) addMember(keyed, SessionMemberKind.crashedUser, session.distinctId);
  }
  return { counts: [...counts.values()], members: [...members.values()] };
}

/**
 * Sentry's session statuses from the kept counts (`metrics_sessions_v2`): errored excludes the
 * crashed and abnormal sessions it holds, healthy is the rest of those started; none is negative
 * (an update may arrive without its `init`).
 */
export function sessionStatuses(totals: { started: number; errored: number; abnormal: number; crashed: number }) {
  const errored = Math.max(0, totals.errored - totals.crashed - totals.abnormal);
  return {
    healthy: Math.max(0, totals.started - totals.errored),
    errored,
    abnormal: totals.abnormal,
    crashed: totals.crashed,
  };
}

/** Sentry's crash-free rate: 1 - crashed / total, null without sessions; at most 1 (crashes reported without their start). */
export const crashFreeRate = (total: number, crashed: number): number | null => (total > 0 ? Math.max(0, 1 - crashed / total) : null);
