import { describeActivity } from './activity-text';
import { ignoreGroups, resolveGroups, statusSummary } from './status-actions';
import type { MenuGroup } from './widgets';

/** Picks the menu item with that label, as a click would. */
function pick(groups: MenuGroup[], label: string): void {
  const item = groups.flatMap((group) => group.items).find((candidate) => candidate.label === label);
  if (!item || item.disabled) throw new Error(`no item ${label}`);
  item.onSelect();
}

describe('resolve and ignore menus', () => {
  const changes: Array<Record<string, unknown>> = [];
  const update = (change: Record<string, unknown>) => changes.push(change);
  beforeEach(() => changes.splice(0));

  it("send the API's statusDetails for each resolution", () => {
    const groups = resolveGroups(update, ['shop@1.4.1', 'shop@1.4.0']);
    for (const label of ['Resolve', 'In the next release', 'In the current release', 'shop@1.4.0']) pick(groups, label);
    expect(changes).toEqual([
      { status: 'resolved', statusDetails: {} },
      { status: 'resolved', statusDetails: { inNextRelease: true } },
      { status: 'resolved', statusDetails: { inRelease: 'latest' } },
      { status: 'resolved', statusDetails: { inRelease: 'shop@1.4.0' } },
    ]);
  });

  it('offers no release resolutions before the project has seen a release', () => {
    const groups = resolveGroups(update, []);
    expect(groups).toHaveLength(1);
    expect(groups[0].items.filter((item) => item.disabled).map((item) => item.label)).toEqual(['In the next release', 'In the current release']);
  });

  it('ignores forever, for a duration, or until more events or users', () => {
    const groups = ignoreGroups(update);
    for (const label of ['Forever', 'For 30 minutes', 'For 1 week', 'Until 100 more events', 'Until 1 more user']) pick(groups, label);
    expect(changes).toEqual([
      { status: 'ignored', statusDetails: {} },
      { status: 'ignored', statusDetails: { ignoreDuration: 30 } },
      { status: 'ignored', statusDetails: { ignoreDuration: 10080 } },
      { status: 'ignored', statusDetails: { ignoreCount: 100 } },
      { status: 'ignored', statusDetails: { ignoreUserCount: 1 } },
    ]);
  });

  it('says what the status details mean', () => {
    expect(statusSummary('resolved', { inNextRelease: true })).toBe('Resolved in the next release');
    expect(statusSummary('resolved', { inRelease: 'shop@2' })).toBe('Resolved in shop@2');
    expect(statusSummary('ignored', { ignoreCount: 10 })).toBe('Ignored until 10 more events');
    expect(statusSummary('ignored', {})).toBe('Ignored');
    expect(statusSummary('unresolved', {})).toBe('Unresolved');
    expect(statusSummary('unresolved', {}, 'ongoing')).toBe('Unresolved');
    expect(statusSummary('unresolved', {}, 'regressed')).toBe('Regressed');
    expect(statusSummary('unresolved', {}, 'escalating')).toBe('Escalating');
    expect(statusSummary('resolved', {}, 'regressed')).toBe('Resolved');
  });
});

describe('activity wording', () => {
  const entry = (type: string, data: Record<string, unknown> = {}) => ({ id: '1', type, data, dateCreated: '2026-01-01T00:00:00Z', user: null });

  it("reads the feed's entries as Sentry words them", () => {
    expect(describeActivity(entry('set_resolved_in_release', { version: 'shop@2' }))).toBe('marked this issue as resolved in shop@2');
    expect(describeActivity(entry('set_resolved_in_release', { version: '' }))).toBe('marked this issue as resolved in the upcoming release');
    expect(describeActivity(entry('set_ignored', { ignoreDuration: 60 }))).toBe('ignored this issue for 1 hour');
    expect(describeActivity(entry('set_ignored', { ignoreDuration: 10080 }))).toBe('ignored this issue for 1 week');
    expect(describeActivity(entry('set_ignored', { ignoreCount: 1 }))).toBe('ignored this issue until it happens 1 more time');
    expect(describeActivity(entry('set_ignored'))).toBe('ignored this issue forever');
    expect(describeActivity(entry('assigned', { assigneeType: 'team', assigneeName: 'backend' }))).toBe('assigned this issue to #backend');
    expect(describeActivity(entry('set_regression'))).toBe('marked this issue as a regression');
  });
});
