import type { Activity } from './types';

const unit = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const minutes = (value: number) =>
  value % 10080 === 0
    ? unit(value / 10080, 'week')
    : value % 1440 === 0
      ? unit(value / 1440, 'day')
      : value % 60 === 0
        ? unit(value / 60, 'hour')
        : unit(value, 'minute');

/** What an entry of the feed says happened, Sentry's wording. */
export function describeActivity(item: Activity): string {
  const data = item.data ?? {};
  switch (item.type) {
    case 'first_seen':
      return 'First seen';
    case 'set_resolved':
      return 'marked this issue as resolved';
    case 'set_resolved_in_release':
      return data.version ? `marked this issue as resolved in ${data.version}` : 'marked this issue as resolved in the upcoming release';
    case 'set_unresolved':
      return 'marked this issue as unresolved';
    case 'set_regression':
      return 'marked this issue as a regression';
    case 'set_escalating':
      return 'flagged this issue as escalating';
    case 'set_ignored':
      if (data.ignoreDuration) return `ignored this issue for ${minutes(Number(data.ignoreDuration))}`;
      if (data.ignoreCount) return `ignored this issue until it happens ${data.ignoreCount} more time${data.ignoreCount === 1 ? '' : 's'}`;
      if (data.ignoreUserCount) return `ignored this issue until it affects ${data.ignoreUserCount} more user${data.ignoreUserCount === 1 ? '' : 's'}`;
      if (data.ignoreUntil) return `ignored this issue until ${new Date(String(data.ignoreUntil)).toLocaleString()}`;
      return 'ignored this issue forever';
    case 'assigned':
      return `assigned this issue to ${data.assigneeType === 'team' ? '#' : ''}${data.assigneeName ?? data.assigneeEmail ?? data.assignee}`;
    case 'unassigned':
      return 'unassigned this issue';
    case 'merge': {
      const count = Array.isArray(data.issues) ? data.issues.length : 0;
      return `merged ${count} issue${count === 1 ? '' : 's'} into this issue`;
    }
    case 'unmerge_source': {
      const count = Array.isArray(data.fingerprints) ? data.fingerprints.length : 0;
      const destination = (data.destination as { shortId?: string } | undefined)?.shortId ?? data.destination_id;
      return `unmerged ${count} fingerprint${count === 1 ? '' : 's'} into ${destination}`;
    }
    case 'unmerge_destination': {
      const count = Array.isArray(data.fingerprints) ? data.fingerprints.length : 0;
      const source = (data.source as { shortId?: string } | undefined)?.shortId ?? data.source_id;
      return `unmerged ${count} fingerprint${count === 1 ? '' : 's'} from ${source}`;
    }
    default:
      return item.type.replace(/_/g, ' ');
  }
}
