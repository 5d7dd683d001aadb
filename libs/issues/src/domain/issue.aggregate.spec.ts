import { DeciderSpecification } from '@faultline/kernel/testing';
import { Issue, type IssueSnapshot, MAX_COMMENT_LENGTH, NewIssue } from './issue.aggregate';
import {
  commentAdded,
  commentDeleted,
  commentEdited,
  IssueActor,
  issueAssigned,
  issueCreated,
  IssueEvent,
  IssueEventTypes,
  issueIgnored,
  issueResolved,
  issueUnassigned,
  issueUnresolved,
  isIssueEvent,
  issueMergedInto,
  issuesMerged,
  issueUnmerged,
  issueUnmergedFrom,
  SYSTEM_ACTOR,
} from './issue.events';

// ---- fixtures ----------------------------------------------------------------------------------

const alice: IssueActor = { type: 'user', id: 'user-alice', name: 'Alice' };
const bob: IssueActor = { type: 'user', id: 'user-bob', name: 'Bob' };
const app: IssueActor = { type: 'application', id: 'user-alice', name: 'Some App' };

const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-01T11:00:00.000Z';
const T2 = '2024-05-01T12:00:00.000Z';
const T3 = '2024-05-01T13:00:00.000Z';

const subject = { issueId: 'issue-1', projectId: 'project-1', organizationId: 'org-1' };

const newIssue: NewIssue = {
  ...subject,
  shortId: 'WEB-3',
  title: "TypeError: Cannot read properties of undefined (reading 'id')",
  culprit: 'app/components/profile.tsx in render',
  level: 'error',
  platform: 'javascript',
  fingerprintHash: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  firstSeen: '2024-05-01T09:59:58.123456Z',
  firstEventId: 'evt-0001',
};

const { issueId: _issueId, ...newIssueDetails } = newIssue;
const created = issueCreated({ ...newIssue, actor: SYSTEM_ACTOR, at: T0 });
const resolved = issueResolved({ ...subject, actor: alice, at: T1 });
const ignoredForever = issueIgnored({ ...subject, actor: alice, at: T1 });
const ignoredUntilT2 = issueIgnored({ ...subject, actor: alice, at: T1, until: T2 });
const ignoredFor10 = issueIgnored({ ...subject, actor: alice, at: T1, untilCount: 10 });
const ignoredFor3Users = issueIgnored({ ...subject, actor: alice, at: T1, untilUserCount: 3 });
const assignedToBob = issueAssigned({ ...subject, actor: alice, at: T1, assignee: { type: 'user', id: 'user-bob', name: 'Bob', email: 'bob@example.com' } });
const aliceCommented = commentAdded({ ...subject, actor: alice, at: T1, commentId: 'c-1', text: 'Looking into it' });
const aliceDeletedComment = commentDeleted({ ...subject, actor: alice, at: T2, commentId: 'c-1' });

// ---- given / when / then -----------------------------------------------------------------------

const { given, creating, expectReplayReproduces } = DeciderSpecification.for<Issue, IssueEvent, IssueSnapshot>({
  fromHistory: (history) => Issue.fromHistory(history),
  snapshot: (issue) => issue.toSnapshot(),
});

// ---- tests -------------------------------------------------------------------------------------

describe('Issue', () => {
  describe('create', () => {
    it('raises IssueCreated and starts unresolved and new', () => {
      const issue = creating(() => Issue.create(SYSTEM_ACTOR, T0, newIssue)).then([created]);
      expect(issue.toSnapshot()).toEqual({
        id: 'issue-1',
        ...newIssueDetails,
        createdAt: T0,
        status: 'unresolved',
        substatus: 'new',
        resolution: null,
        ignoreConditions: null,
        assignee: null,
        comments: [],
        version: 1,
      });
      expect(issue.loadedVersion).toBe(0);
    });

    it('pulling pending events advances the loaded version', () => {
      const issue = Issue.create(SYSTEM_ACTOR, T0, newIssue);
      expect(issue.pullPendingEvents()).toEqual([created]);
      expect(issue.loadedVersion).toBe(1);
      expect(issue.peekPendingEvents()).toEqual([]);
    });

    it.each<[string, Partial<NewIssue>, RegExp]>([
      ['an empty title', { title: '  ' }, /title must not be empty/],
      ['a bad short id', { shortId: 'web 3' }, /not a valid short id/],
      ['a lower-case short id', { shortId: 'web-3' }, /not a valid short id/],
      ['an unknown level', { level: 'loud' as never }, /level must be one of/],
      ['a non-ISO firstSeen', { firstSeen: '01/05/2024' }, /firstSeen must be an ISO 8601 timestamp/],
      ['an empty fingerprint', { fingerprintHash: '' }, /fingerprintHash must not be empty/],
      ['an empty first event id', { firstEventId: '' }, /firstEventId must not be empty/],
    ])('rejects %s', (_name, override, message) => {
      expect(() => Issue.create(SYSTEM_ACTOR, T0, { ...newIssue, ...override })).toThrow(message);
    });

    it('rejects a non-ISO time and a bad actor', () => {
      expect(() => Issue.create(SYSTEM_ACTOR, 'yesterday', newIssue)).toThrow(/at must be an ISO 8601 timestamp/);
      expect(() => Issue.create({ type: 'robot' as never, id: 'x', name: 'x' }, T0, newIssue)).toThrow(/actor.type/);
      expect(() => Issue.create({ type: 'user', id: '', name: 'x' }, T0, newIssue)).toThrow(/actor.id/);
    });

    it('allows an empty culprit', () => {
      expect(Issue.create(SYSTEM_ACTOR, T0, { ...newIssue, culprit: '' }).toSnapshot().culprit).toBe('');
    });
  });

  describe('fromHistory', () => {
    it('an empty stream is an issue that does not exist', () => {
      expect(() => Issue.fromHistory([])).toThrow(expect.objectContaining({ code: 'not_found' }));
    });

    it('refuses a stream that does not start with IssueCreated', () => {
      expect(() => Issue.fromHistory([resolved])).toThrow(/before issues.IssueCreated/);
    });

    it('refuses a second IssueCreated', () => {
      expect(() => Issue.fromHistory([created, created])).toThrow(/already created/);
    });

    it('refuses edits of comments that were never added', () => {
      const edit = commentEdited({ ...subject, actor: alice, at: T1, commentId: 'nope', text: 'x' });
      expect(() => Issue.fromHistory([created, edit])).toThrow(/never added/);
    });

    it('is deterministic and never reads the clock', () => {
      const now = jest.spyOn(Date, 'now').mockImplementation(() => {
        throw new Error('the domain must not read the clock');
      });
      try {
        const history = [created, assignedToBob, aliceCommented, ignoredUntilT2];
        const issue = Issue.fromHistory(history);
        issue.recordNewEvent(T3, 'evt-2');
        issue.resolve(alice, T3, { inRelease: '1.0.0' });
        const events = [...history, ...issue.peekPendingEvents()];
        expect(Issue.fromHistory(events).toSnapshot()).toEqual(Issue.fromHistory(events).toSnapshot());
        expect(Issue.fromHistory(events).toSnapshot()).toEqual(issue.toSnapshot());
      } finally {
        now.mockRestore();
      }
    });
  });

  describe('resolve', () => {
    it('resolves an unresolved issue', () => {
      const issue = given(created)
        .when((i) => i.resolve(alice, T1))
        .then([resolved]);
      expect(issue.status).toBe('resolved');
      expect(issue.substatus).toBeNull();
      expect(issue.resolution).toEqual({ resolvedAt: T1 });
    });

    it('records the release it was resolved in', () => {
      const issue = given(created)
        .when((i) => i.resolve(alice, T1, { inRelease: 'web@1.2.0' }))
        .then([issueResolved({ ...subject, actor: alice, at: T1, inRelease: 'web@1.2.0' })]);
      expect(issue.resolution).toEqual({ resolvedAt: T1, inRelease: 'web@1.2.0' });
    });

    it('resolves an ignored issue and drops its ignore conditions', () => {
      const issue = given(created, ignoredUntilT2)
        .when((i) => i.resolve(bob, T2))
        .then([issueResolved({ ...subject, actor: bob, at: T2 })]);
      expect(issue.ignoreConditions).toBeNull();
    });

    it('resolving a resolved issue the same way again raises nothing', () => {
      given(created, resolved)
        .when((i) => i.resolve(bob, T2))
        .thenNothing();
      const inRelease = issueResolved({ ...subject, actor: alice, at: T1, inRelease: 'web@2' });
      given(created, inRelease)
        .when((i) => i.resolve(bob, T2, { inRelease: 'web@2' }))
        .thenNothing();
    });

    it('replaces the resolution when resolved again in another release', () => {
      const issue = given(created, resolved)
        .when((i) => i.resolve(bob, T2, { inRelease: 'web@3' }))
        .then([issueResolved({ ...subject, actor: bob, at: T2, inRelease: 'web@3' })]);
      expect(issue.resolution).toEqual({ resolvedAt: T2, inRelease: 'web@3' });
    });

    it('rejects an empty release', () => {
      given(created)
        .when((i) => i.resolve(bob, T2, { inRelease: '' }))
        .thenError('invalid', /inRelease/);
    });

    it('resolves in the release after the latest one, raises nothing doing it again, and rejects naming a release too', () => {
      const next = issueResolved({ ...subject, actor: alice, at: T1, inNextReleaseAfter: 'web@2.0.0' });
      const issue = given(created)
        .when((i) => i.resolve(alice, T1, { inNextReleaseAfter: 'web@2.0.0' }))
        .then([next]);
      expect(issue.resolution).toEqual({ resolvedAt: T1, inNextReleaseAfter: 'web@2.0.0' });
      expect(issue.isResolvedAs({ inNextReleaseAfter: 'web@2.0.0' })).toBe(true);
      expect(issue.isResolvedAs({ inRelease: 'web@2.0.0' })).toBe(false);
      given(created, next)
        .when((i) => i.resolve(bob, T2, { inNextReleaseAfter: 'web@2.0.0' }))
        .thenNothing();
      given(created, next)
        .when((i) => i.resolve(bob, T2, { inRelease: 'web@2.0.0' }))
        .then([issueResolved({ ...subject, actor: bob, at: T2, inRelease: 'web@2.0.0' })]);
      given(created)
        .when((i) => i.resolve(bob, T2, { inRelease: 'web@1', inNextReleaseAfter: 'web@1' }))
        .thenError('invalid', /not both/);
    });
  });

  describe('unresolve', () => {
    it('unresolves a resolved issue manually', () => {
      const issue = given(created, resolved)
        .when((i) => i.unresolve(bob, T2))
        .then([issueUnresolved({ ...subject, actor: bob, at: T2, reason: 'manual' })]);
      expect(issue.status).toBe('unresolved');
      expect(issue.substatus).toBe('ongoing');
      expect(issue.resolution).toBeNull();
    });

    it('unignores an ignored issue manually', () => {
      const issue = given(created, ignoredForever)
        .when((i) => i.unresolve(bob, T2))
        .then([issueUnresolved({ ...subject, actor: bob, at: T2, reason: 'manual' })]);
      expect(issue.ignoreConditions).toBeNull();
    });

    it('unresolving an unresolved issue raises nothing', () => {
      given(created)
        .when((i) => i.unresolve(bob, T1))
        .thenNothing();
    });
  });

  describe('ignore', () => {
    it('ignores forever', () => {
      const issue = given(created)
        .when((i) => i.ignore(alice, T1))
        .then([ignoredForever]);
      expect(issue.status).toBe('ignored');
      expect(issue.substatus).toBe('archived_forever');
      expect(issue.ignoreConditions).toEqual({ ignoredAt: T1 });
    });

    it('ignores until a time', () => {
      const issue = given(created)
        .when((i) => i.ignore(alice, T1, { until: T2 }))
        .then([ignoredUntilT2]);
      expect(issue.substatus).toBe('archived_until_condition_met');
      expect(issue.ignoreConditions).toEqual({ ignoredAt: T1, until: T2 });
    });

    it('ignores until a number of events', () => {
      const issue = given(created)
        .when((i) => i.ignore(alice, T1, { untilCount: 10 }))
        .then([ignoredFor10]);
      expect(issue.ignoreConditions).toEqual({ ignoredAt: T1, untilCount: 10 });
    });

    it('ignores a resolved issue', () => {
      const issue = given(created, resolved)
        .when((i) => i.ignore(bob, T2))
        .then([issueIgnored({ ...subject, actor: bob, at: T2 })]);
      expect(issue.resolution).toBeNull();
    });

    it('replaces the conditions of an ignored issue', () => {
      given(created, ignoredForever)
        .when((i) => i.ignore(alice, T1, { until: T2 }))
        .then([ignoredUntilT2]);
    });

    it('ignoring again with the same conditions raises nothing, unless they count', () => {
      given(created, ignoredForever)
        .when((i) => i.ignore(bob, T2))
        .thenNothing();
      given(created, ignoredUntilT2)
        .when((i) => i.ignore(bob, T1, { until: T2 }))
        .thenNothing();
      // Even once the time has passed with no event to end the ignore: the conditions are the same.
      given(created, ignoredUntilT2)
        .when((i) => i.ignore(bob, T3, { until: T2 }))
        .thenNothing();
      // The same count again starts counting again.
      given(created, ignoredFor10)
        .when((i) => i.ignore(bob, T2, { untilCount: 10 }))
        .then([issueIgnored({ ...subject, actor: bob, at: T2, untilCount: 10 })]);
    });

    it('rejects a time that is not in the future', () => {
      given(created)
        .when((i) => i.ignore(alice, T1, { until: T1 }))
        .thenError('invalid', /in the future/);
      given(created)
        .when((i) => i.ignore(alice, T1, { until: T0 }))
        .thenError('invalid', /in the future/);
      given(created)
        .when((i) => i.ignore(alice, T1, { until: 'tomorrow' }))
        .thenError('invalid', /until must be an ISO/);
    });

    it.each([0, -3, 2.5])('rejects untilCount %p', (untilCount) => {
      given(created)
        .when((i) => i.ignore(alice, T1, { untilCount }))
        .thenError('invalid', /untilCount/);
    });

    it('ignores until a number of users, a condition of its own', () => {
      const issue = given(created)
        .when((i) => i.ignore(alice, T1, { untilUserCount: 3 }))
        .then([ignoredFor3Users]);
      expect(issue.substatus).toBe('archived_until_condition_met');
      expect(issue.ignoreConditions).toEqual({ ignoredAt: T1, untilUserCount: 3 });
      given(created, ignoredFor3Users)
        .when((i) => i.ignore(bob, T2, { untilUserCount: 3 }))
        .then([issueIgnored({ ...subject, actor: bob, at: T2, untilUserCount: 3 })]);
      given(created, ignoredFor3Users)
        .when((i) => i.ignore(bob, T2, { untilCount: 3 }))
        .then([issueIgnored({ ...subject, actor: bob, at: T2, untilCount: 3 })]);
    });

    it.each([0, -1, 1.5])('rejects untilUserCount %p', (untilUserCount) => {
      given(created)
        .when((i) => i.ignore(alice, T1, { untilUserCount }))
        .thenError('invalid', /untilUserCount/);
    });
  });

  describe('recordNewEvent', () => {
    const regression = (eventId: string) => [issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T2, reason: 'regression', eventId })];

    it('raises nothing for an unresolved issue', () => {
      given(created)
        .when((i) => i.recordNewEvent(T1, 'evt-2'))
        .thenNothing();
    });

    it('regresses a resolved issue, as the system', () => {
      const issue = given(created, resolved)
        .when((i) => i.recordNewEvent(T2, 'evt-2'))
        .then(regression('evt-2'));
      expect(issue.status).toBe('unresolved');
      expect(issue.substatus).toBe('regressed');
    });

    describe('resolved in a release', () => {
      const inRelease = issueResolved({ ...subject, actor: alice, at: T1, inRelease: 'web@2.0.0' });

      it('stays resolved for an event without a release or from an older one', () => {
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2'))
          .thenNothing();
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2', { release: 'web@1.9.3' }))
          .thenNothing();
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2', { release: 'web@2.0.0-rc.2' }))
          .thenNothing();
      });

      it('regresses for an event from that release, a newer one, or one that cannot be ordered', () => {
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2', { release: 'web@2.0.0' }))
          .then(regression('evt-2'));
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-3', { release: 'web@2.1.0' }))
          .then(regression('evt-3'));
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-4', { release: 'web@5f3c2a1' }))
          .then(regression('evt-4'));
        given(created, inRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-5', { release: 'api@1.0.0' }))
          .then(regression('evt-5'));
      });

      it('regresses for any event when resolved without a release', () => {
        given(created, resolved)
          .when((i) => i.recordNewEvent(T2, 'evt-6', { release: 'web@0.0.1' }))
          .then(regression('evt-6'));
      });
    });

    describe('resolved in the next release', () => {
      const inNextRelease = issueResolved({ ...subject, actor: alice, at: T1, inNextReleaseAfter: 'web@2.0.0' });

      it('stays resolved for an event without a release, from the release that was the latest, or an older one', () => {
        given(created, inNextRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2'))
          .thenNothing();
        given(created, inNextRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2', { release: 'web@2.0.0' }))
          .thenNothing();
        given(created, inNextRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-2', { release: 'web@1.9.3' }))
          .thenNothing();
      });

      it('regresses for an event from a newer release or one that cannot be ordered', () => {
        given(created, inNextRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-3', { release: 'web@2.0.1' }))
          .then(regression('evt-3'));
        given(created, inNextRelease)
          .when((i) => i.recordNewEvent(T2, 'evt-4', { release: 'web@5f3c2a1' }))
          .then(regression('evt-4'));
      });
    });

    it('raises nothing for an issue ignored forever', () => {
      given(created, ignoredForever)
        .when((i) => i.recordNewEvent(T3, 'evt-2', { sinceIgnored: { events: 1_000_000, users: 1_000 } }))
        .thenNothing();
    });

    describe('ignored until a time', () => {
      it('stays ignored before the time', () => {
        given(created, ignoredUntilT2)
          .when((i) => i.recordNewEvent('2024-05-01T11:59:59.999Z', 'evt-2'))
          .thenNothing();
      });

      it('expires at the time', () => {
        given(created, ignoredUntilT2)
          .when((i) => i.recordNewEvent(T2, 'evt-2'))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T2, reason: 'ignore_expired', eventId: 'evt-2' })]);
      });

      it('expires after the time, to escalating', () => {
        const issue = given(created, ignoredUntilT2)
          .when((i) => i.recordNewEvent(T3, 'evt-2'))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T3, reason: 'ignore_expired', eventId: 'evt-2' })]);
        expect(issue.substatus).toBe('escalating');
        expect(issue.ignoreConditions).toBeNull();
      });
    });

    describe('ignored until a count', () => {
      it('stays ignored below the count', () => {
        given(created, ignoredFor10)
          .when((i) => i.recordNewEvent(T2, 'evt-9', { sinceIgnored: { events: 9, users: 50 } }))
          .thenNothing();
      });

      it('stays ignored when no count is given', () => {
        given(created, ignoredFor10)
          .when((i) => i.recordNewEvent(T2, 'evt-9'))
          .thenNothing();
      });

      it('expires when the count is reached', () => {
        given(created, ignoredFor10)
          .when((i) => i.recordNewEvent(T2, 'evt-10', { sinceIgnored: { events: 10, users: 0 } }))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T2, reason: 'ignore_expired', eventId: 'evt-10' })]);
      });

      it('expires on whichever of time and count comes first', () => {
        const both = issueIgnored({ ...subject, actor: alice, at: T1, until: T3, untilCount: 5 });
        given(created, both)
          .when((i) => i.recordNewEvent(T2, 'evt-5', { sinceIgnored: { events: 5, users: 1 } }))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T2, reason: 'ignore_expired', eventId: 'evt-5' })]);
        given(created, both)
          .when((i) => i.recordNewEvent(T3, 'evt-2', { sinceIgnored: { events: 1, users: 1 } }))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T3, reason: 'ignore_expired', eventId: 'evt-2' })]);
      });
    });

    describe('ignored until a number of users', () => {
      it('stays ignored below the number, however many events', () => {
        given(created, ignoredFor3Users)
          .when((i) => i.recordNewEvent(T2, 'evt-99', { sinceIgnored: { events: 99, users: 2 } }))
          .thenNothing();
      });

      it('expires when the number is reached', () => {
        given(created, ignoredFor3Users)
          .when((i) => i.recordNewEvent(T2, 'evt-4', { sinceIgnored: { events: 4, users: 3 } }))
          .then([issueUnresolved({ ...subject, actor: SYSTEM_ACTOR, at: T2, reason: 'ignore_expired', eventId: 'evt-4' })]);
      });
    });

    it('rejects bad input', () => {
      given(created)
        .when((i) => i.recordNewEvent(T1, ''))
        .thenError('invalid', /eventId/);
      given(created)
        .when((i) => i.recordNewEvent('now', 'evt-2'))
        .thenError('invalid', /at must be an ISO/);
      given(created)
        .when((i) => i.recordNewEvent(T1, 'evt-2', { sinceIgnored: { events: -1, users: 0 } }))
        .thenError('invalid', /sinceIgnored.events/);
      given(created)
        .when((i) => i.recordNewEvent(T1, 'evt-2', { sinceIgnored: { events: 1, users: 0.5 } }))
        .thenError('invalid', /sinceIgnored.users/);
    });
  });

  describe('assign', () => {
    it('assigns a user', () => {
      const issue = given(created)
        .when((i) => i.assign(alice, T1, { type: 'user', id: 'user-bob', name: 'Bob', email: 'bob@example.com' }))
        .then([assignedToBob]);
      expect(issue.assignee).toEqual({ type: 'user', id: 'user-bob', name: 'Bob', email: 'bob@example.com' });
    });

    it('reassigns to a team', () => {
      const issue = given(created, assignedToBob)
        .when((i) => i.assign(bob, T2, { type: 'team', id: 'team-web' }))
        .then([issueAssigned({ ...subject, actor: bob, at: T2, assignee: { type: 'team', id: 'team-web' } })]);
      expect(issue.assignee).toEqual({ type: 'team', id: 'team-web' });
    });

    it('assigning the current assignee again is a no-op', () => {
      given(created, assignedToBob)
        .when((i) => i.assign(bob, T2, { type: 'user', id: 'user-bob' }))
        .thenNothing();
    });

    it('a team and a user with the same id are different assignees', () => {
      given(created, assignedToBob)
        .when((i) => i.assign(bob, T2, { type: 'team', id: 'user-bob' }))
        .then([issueAssigned({ ...subject, actor: bob, at: T2, assignee: { type: 'team', id: 'user-bob' } })]);
    });

    it('rejects a bad assignee', () => {
      given(created)
        .when((i) => i.assign(alice, T1, { type: 'org' as never, id: 'x' }))
        .thenError('invalid', /user or a team/);
      given(created)
        .when((i) => i.assign(alice, T1, { type: 'user', id: '' }))
        .thenError('invalid', /assignee id/);
    });

    it('unassigns', () => {
      const issue = given(created, assignedToBob)
        .when((i) => i.unassign(alice, T2))
        .then([issueUnassigned({ ...subject, actor: alice, at: T2 })]);
      expect(issue.assignee).toBeNull();
    });

    it('unassigning an unassigned issue is a no-op', () => {
      given(created)
        .when((i) => i.unassign(alice, T1))
        .thenNothing();
    });
  });

  describe('comments', () => {
    it('adds a comment', () => {
      const issue = given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', 'Looking into it'))
        .then([aliceCommented]);
      expect(issue.comment('c-1')).toEqual({
        id: 'c-1',
        text: 'Looking into it',
        authorId: 'user-alice',
        authorType: 'user',
        authorName: 'Alice',
        createdAt: T1,
        deleted: false,
      });
    });

    it('rejects empty text', () => {
      given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', ''))
        .thenError('invalid', 'Comment text must not be empty');
      given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', ' \n\t'))
        .thenError('invalid', 'Comment text must not be empty');
    });

    it(`accepts ${MAX_COMMENT_LENGTH} characters and rejects more`, () => {
      given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', 'x'.repeat(MAX_COMMENT_LENGTH)))
        .then([commentAdded({ ...subject, actor: alice, at: T1, commentId: 'c-1', text: 'x'.repeat(MAX_COMMENT_LENGTH) })]);
      given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', 'x'.repeat(MAX_COMMENT_LENGTH + 1)))
        .thenError('invalid', `Comment text must be at most ${MAX_COMMENT_LENGTH} characters`);
    });

    it('counts characters, not UTF-16 units', () => {
      const emoji = '🐛'.repeat(MAX_COMMENT_LENGTH);
      given(created)
        .when((i) => i.addComment(alice, T1, 'c-1', emoji))
        .then([commentAdded({ ...subject, actor: alice, at: T1, commentId: 'c-1', text: emoji })]);
    });

    it('rejects a duplicate comment id', () => {
      given(created, aliceCommented)
        .when((i) => i.addComment(bob, T2, 'c-1', 'Me too'))
        .thenError('conflict', /already exists/);
    });

    it('the author edits a comment', () => {
      const issue = given(created, aliceCommented)
        .when((i) => i.editComment(alice, T2, 'c-1', 'Fixed in #42'))
        .then([commentEdited({ ...subject, actor: alice, at: T2, commentId: 'c-1', text: 'Fixed in #42' })]);
      expect(issue.comment('c-1')).toMatchObject({ text: 'Fixed in #42', editedAt: T2, createdAt: T1, authorId: 'user-alice' });
    });

    it('editing to the same text is a no-op', () => {
      given(created, aliceCommented)
        .when((i) => i.editComment(alice, T2, 'c-1', 'Looking into it'))
        .thenNothing();
    });

    it('only the author may edit', () => {
      given(created, aliceCommented)
        .when((i) => i.editComment(bob, T2, 'c-1', 'Hijacked'))
        .thenError('forbidden', 'Only the author of a comment can edit it');
    });

    it('an application with the id of the author is not the author', () => {
      given(created, aliceCommented)
        .when((i) => i.editComment(app, T2, 'c-1', 'Hijacked'))
        .thenError('forbidden', /author/);
    });

    it('rejects empty or too long edits', () => {
      given(created, aliceCommented)
        .when((i) => i.editComment(alice, T2, 'c-1', '  '))
        .thenError('invalid', /must not be empty/);
      given(created, aliceCommented)
        .when((i) => i.editComment(alice, T2, 'c-1', 'y'.repeat(MAX_COMMENT_LENGTH + 1)))
        .thenError('invalid', /at most/);
    });

    it('a deleted comment cannot be edited', () => {
      given(created, aliceCommented, aliceDeletedComment)
        .when((i) => i.editComment(alice, T3, 'c-1', 'Back again'))
        .thenError('not_found', 'Comment c-1 has been deleted');
    });

    it('an unknown comment cannot be edited or deleted', () => {
      given(created)
        .when((i) => i.editComment(alice, T1, 'c-9', 'x'))
        .thenError('not_found', 'Comment c-9 does not exist');
      given(created)
        .when((i) => i.deleteComment(alice, T1, 'c-9'))
        .thenError('not_found', 'Comment c-9 does not exist');
    });

    it('the author deletes a comment, which stays as a tombstone', () => {
      const issue = given(created, aliceCommented)
        .when((i) => i.deleteComment(alice, T2, 'c-1'))
        .then([aliceDeletedComment]);
      expect(issue.comment('c-1')).toMatchObject({ deleted: true, deletedAt: T2 });
    });

    it('only the author may delete', () => {
      given(created, aliceCommented)
        .when((i) => i.deleteComment(bob, T2, 'c-1'))
        .thenError('forbidden', 'Only the author of a comment can delete it');
    });

    it('a deleted comment cannot be deleted again, and its id stays taken', () => {
      given(created, aliceCommented, aliceDeletedComment)
        .when((i) => i.deleteComment(alice, T3, 'c-1'))
        .thenError('not_found', /deleted/);
      given(created, aliceCommented, aliceDeletedComment)
        .when((i) => i.addComment(alice, T3, 'c-1', 'x'))
        .thenError('conflict', /already exists/);
    });

    it('comments are allowed whatever the status', () => {
      given(created, resolved)
        .when((i) => i.addComment(bob, T2, 'c-2', 'Still happening?'))
        .then([commentAdded({ ...subject, actor: bob, at: T2, commentId: 'c-2', text: 'Still happening?' })]);
    });
  });

  describe('a whole life', () => {
    it('replaying every raised event reproduces the state', () => {
      const issue = Issue.create(SYSTEM_ACTOR, T0, newIssue);
      issue.assign(alice, T1, { type: 'team', id: 'team-web', name: 'Web' });
      issue.addComment(alice, T1, 'c-1', 'Mine');
      issue.addComment(bob, T1, 'c-2', 'Ours');
      issue.editComment(alice, T1, 'c-1', 'Mine, really');
      issue.deleteComment(bob, T1, 'c-2');
      issue.ignore(alice, T1, { untilCount: 2 });
      issue.recordNewEvent(T2, 'evt-2', { sinceIgnored: { events: 1, users: 1 } });
      issue.recordNewEvent(T2, 'evt-3', { sinceIgnored: { events: 2, users: 1 } });
      issue.resolve(bob, T2, { inRelease: '2.0.0' });
      issue.recordNewEvent(T3, 'evt-4', { release: '2.0.1' });
      issue.unassign(bob, T3);
      issue.ignore(bob, T3);
      issue.unresolve(alice, T3);

      const events = issue.pullPendingEvents();
      expect(events.map((e) => e.type)).toEqual([
        IssueEventTypes.IssueCreated,
        IssueEventTypes.IssueAssigned,
        IssueEventTypes.CommentAdded,
        IssueEventTypes.CommentAdded,
        IssueEventTypes.CommentEdited,
        IssueEventTypes.CommentDeleted,
        IssueEventTypes.IssueIgnored,
        IssueEventTypes.IssueUnresolved,
        IssueEventTypes.IssueResolved,
        IssueEventTypes.IssueUnresolved,
        IssueEventTypes.IssueUnassigned,
        IssueEventTypes.IssueIgnored,
        IssueEventTypes.IssueUnresolved,
      ]);
      expect(issue.loadedVersion).toBe(events.length);
      expectReplayReproduces(issue, [], events);
      expect(issue.toSnapshot()).toMatchObject({
        status: 'unresolved',
        substatus: 'ongoing',
        assignee: null,
        comments: [
          { id: 'c-1', text: 'Mine, really', deleted: false },
          { id: 'c-2', text: 'Ours', deleted: true },
        ],
        version: events.length,
      });
    });
  });

  describe('merge', () => {
    const other = (issueId: string, projectId = 'project-1', shortId = 'WEB-9') =>
      Issue.fromHistory([issueCreated({ ...newIssue, issueId, projectId, shortId, actor: SYSTEM_ACTOR, at: T0 })]);
    const mergedIntoPrimary = issueMergedInto({ ...subject, actor: alice, at: T1, parent: { issueId: 'issue-2', shortId: 'WEB-9' } });

    it('absorbs issues of the same project, naming them', () => {
      given(created)
        .when((i) => i.absorb(alice, T1, [other('issue-2'), other('issue-3', 'project-1', 'WEB-10')]))
        .then([
          issuesMerged({
            ...subject,
            actor: alice,
            at: T1,
            children: [
              { issueId: 'issue-2', shortId: 'WEB-9' },
              { issueId: 'issue-3', shortId: 'WEB-10' },
            ],
          }),
        ]);
    });

    it('refuses another project, itself, the same issue twice, already merged issues and nothing at all', () => {
      given(created)
        .when((i) => i.absorb(alice, T1, [other('issue-2', 'project-2')]))
        .thenError('invalid', /across multiple projects/);
      given(created)
        .when((i) => i.absorb(alice, T1, [other('issue-1')]))
        .thenError('invalid', /into itself/);
      given(created)
        .when((i) => i.absorb(alice, T1, [other('issue-2'), other('issue-2')]))
        .thenError('invalid', /twice/);
      given(created)
        .when((i) => i.absorb(alice, T1, []))
        .thenError('invalid', /at least one/);
      const merged = Issue.fromHistory([created, mergedIntoPrimary]);
      given(issueCreated({ ...newIssue, issueId: 'issue-5', actor: SYSTEM_ACTOR, at: T0 }))
        .when((i) => i.absorb(alice, T1, [merged]))
        .thenError('invalid', /already merged/);
    });

    it('records the primary on the merged issue, which then takes no more commands or events', () => {
      const issue = given(created)
        .when((i) => i.mergeInto(alice, T1, other('issue-2')))
        .then([mergedIntoPrimary]);
      expect(issue.mergedInto).toEqual({ issueId: 'issue-2', shortId: 'WEB-9' });
      given(created, mergedIntoPrimary)
        .when((i) => i.resolve(alice, T2))
        .thenError('not_found', /merged into issue issue-2/);
      given(created, mergedIntoPrimary)
        .when((i) => i.recordNewEvent(T2, 'evt-2'))
        .thenError('not_found', /merged/);
      given(created)
        .when((i) => i.mergeInto(alice, T1, other('issue-2', 'project-2')))
        .thenError('invalid', /across multiple projects/);
    });
  });

  describe('unmerge', () => {
    const destination = { issueId: 'issue-7', shortId: 'WEB-12' };
    const hashes = ['hash-a', 'hash-b', 'hash-c'];
    const unmergedB = issueUnmerged({ ...subject, actor: alice, at: T1, hashes: ['hash-b'], destination });

    it('sends the named hashes to the new issue, each once, and the issue keeps the others', () => {
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: ['hash-b', 'hash-b'], issueHashes: hashes, destination }))
        .then([unmergedB]);
      given(created, unmergedB)
        .when((i) => i.unmerge(alice, T2, { hashes: ['hash-a'], issueHashes: ['hash-a', 'hash-c'], destination: { issueId: 'issue-8', shortId: 'WEB-13' } }))
        .then([issueUnmerged({ ...subject, actor: alice, at: T2, hashes: ['hash-a'], destination: { issueId: 'issue-8', shortId: 'WEB-13' } })]);
    });

    it('refuses every hash of the issue, a hash it does not have, none at all, too many and itself as the destination', () => {
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: ['hash-a', 'hash-b', 'hash-c'], issueHashes: hashes, destination }))
        .thenError('invalid', /keeps at least one/);
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: ['hash-z'], issueHashes: hashes, destination }))
        .thenError('invalid', /hash-z is not a hash of this issue/);
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: [], issueHashes: hashes, destination }))
        .thenError('invalid', /at least one hash/);
      const many = Array.from({ length: 101 }, (_, n) => `hash-${n}`);
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: many, issueHashes: [...many, 'kept'], destination }))
        .thenError('invalid', /At most 100/);
      given(created)
        .when((i) => i.unmerge(alice, T1, { hashes: ['hash-a'], issueHashes: hashes, destination: { issueId: 'issue-1', shortId: 'WEB-3' } }))
        .thenError('invalid', /into itself/);
      given(created, issueMergedInto({ ...subject, actor: alice, at: T1, parent: destination }))
        .when((i) => i.unmerge(alice, T2, { hashes: ['hash-a'], issueHashes: hashes, destination }))
        .thenError('not_found', /merged/);
    });

    it('creates the new issue with its side of the unmerge', () => {
      const source = Issue.fromHistory([created]);
      const made = { ...newIssue, issueId: 'issue-7', shortId: 'WEB-12', fingerprintHash: 'hash-b' };
      creating(() => Issue.createByUnmerge(alice, T1, made, source, ['hash-b'])).then([
        issueCreated({ ...made, actor: alice, at: T1 }),
        issueUnmergedFrom({ ...subject, issueId: 'issue-7', actor: alice, at: T1, hashes: ['hash-b'], source: { issueId: 'issue-1', shortId: 'WEB-3' } }),
      ]);
      expect(() => Issue.createByUnmerge(alice, T1, { ...made, projectId: 'project-2' }, source, ['hash-b'])).toThrow(/stays in its project/);
    });
  });

  describe('events', () => {
    it('have stable type strings, schema version 1 and JSON-safe, frozen payloads', () => {
      expect(Object.values(IssueEventTypes)).toEqual([
        'issues.IssueCreated',
        'issues.IssueResolved',
        'issues.IssueUnresolved',
        'issues.IssueIgnored',
        'issues.IssueAssigned',
        'issues.IssueUnassigned',
        'issues.CommentAdded',
        'issues.CommentEdited',
        'issues.CommentDeleted',
        'issues.IssuesMerged',
        'issues.IssueMergedInto',
        'issues.IssueUnmerged',
        'issues.IssueUnmergedFrom',
      ]);
      const event = issueResolved({ ...subject, actor: alice, at: T1, inRelease: undefined });
      expect(event).toEqual({ type: 'issues.IssueResolved', schemaVersion: 1, data: { ...subject, actor: alice, at: T1 } });
      expect('inRelease' in event.data).toBe(false);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
      expect(Object.isFrozen(event.data)).toBe(true);
      expect(Object.isFrozen(event.data.actor)).toBe(true);
    });

    it('recognises issue events', () => {
      expect(isIssueEvent(created)).toBe(true);
      expect(isIssueEvent({ type: 'projects.ProjectCreated', schemaVersion: 1, data: {} })).toBe(false);
    });
  });
});
