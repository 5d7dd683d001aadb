import type { MenuGroup } from './widgets';

type Change = Record<string, unknown>;

/** Resolve, and Sentry's resolve-in-release choices over the API's `statusDetails`. */
export function resolveGroups(update: (change: Change) => void, releases: readonly string[]): MenuGroup[] {
  const groups: MenuGroup[] = [
    {
      items: [
        { label: 'Resolve', onSelect: () => update({ status: 'resolved', statusDetails: {} }) },
        { label: 'In the next release', onSelect: () => update({ status: 'resolved', statusDetails: { inNextRelease: true } }), disabled: !releases.length },
        { label: 'In the current release', onSelect: () => update({ status: 'resolved', statusDetails: { inRelease: 'latest' } }), disabled: !releases.length },
      ],
    },
  ];
  if (releases.length) {
    groups.push({
      label: 'In a release',
      items: releases.map((version) => ({ label: version, onSelect: () => update({ status: 'resolved', statusDetails: { inRelease: version } }) })),
    });
  }
  return groups;
}

const DURATIONS: Array<[number, string]> = [
  [30, '30 minutes'],
  [120, '2 hours'],
  [360, '6 hours'],
  [1440, '24 hours'],
  [10080, '1 week'],
];
const COUNTS = [1, 10, 100, 1000];

/** Archive forever, for a while, or until it happens N more times or to N more users. */
export function ignoreGroups(update: (change: Change) => void): MenuGroup[] {
  const ignore = (statusDetails: Change) => update({ status: 'ignored', statusDetails });
  return [
    { items: [{ label: 'Forever', onSelect: () => ignore({}) }] },
    { label: 'For…', items: DURATIONS.map(([minutes, label]) => ({ label: `For ${label}`, onSelect: () => ignore({ ignoreDuration: minutes }) })) },
    {
      label: 'Until it occurs again…',
      items: COUNTS.map((count) => ({
        label: `Until ${count.toLocaleString('en-US')} more event${count === 1 ? '' : 's'}`,
        onSelect: () => ignore({ ignoreCount: count }),
      })),
    },
    {
      label: 'Until it affects more users…',
      items: COUNTS.map((count) => ({
        label: `Until ${count.toLocaleString('en-US')} more user${count === 1 ? '' : 's'}`,
        onSelect: () => ignore({ ignoreUserCount: count }),
      })),
    },
  ];
}

/**
 * What the status of an issue says, in words (`resolved in shop@1.2`, `ignored for 30 min`); an
 * unresolved issue says its substatus when that is news (Sentry's `regressed`, `escalating`).
 */
export function statusSummary(status: string, details: Record<string, unknown>, substatus?: string | null): string {
  if (status === 'resolved') {
    if (details.inNextRelease) return 'Resolved in the next release';
    if (details.inRelease) return `Resolved in ${String(details.inRelease)}`;
    return 'Resolved';
  }
  if (status === 'ignored') {
    if (details.ignoreUntil) return `Ignored until ${new Date(String(details.ignoreUntil)).toLocaleString()}`;
    if (details.ignoreCount) return `Ignored until ${Number(details.ignoreCount)} more events`;
    if (details.ignoreUserCount) return `Ignored until ${Number(details.ignoreUserCount)} more users`;
    return 'Ignored';
  }
  if (substatus === 'regressed') return 'Regressed';
  if (substatus === 'escalating') return 'Escalating';
  return 'Unresolved';
}
