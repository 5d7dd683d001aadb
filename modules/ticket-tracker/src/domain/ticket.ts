/** What the module keeps of an issue to open its ticket (taken from `issues.IssueCreated`). */
export interface TicketSubject {
  readonly issueId: string;
  readonly organizationId: string;
  readonly projectId: string;
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: string;
}

/** The JSON body the tracker receives; the tracker answers `{"id": ..., "url": ...}`. */
export interface TicketRequest {
  readonly title: string;
  readonly description: string;
  readonly issue: {
    readonly id: string;
    readonly shortId: string;
    readonly organizationId: string;
    readonly projectId: string;
    readonly level: string;
    readonly url: string;
  };
}

/** One ticket per issue: the tracker deduplicates on this key, so a repeated call opens nothing new. */
export const idempotencyKey = (issueId: string): string => `faultline-issue-${issueId}`;

/** The ticket for an issue, linking back to it at `url`. */
export function ticketRequest(subject: TicketSubject, url: string): TicketRequest {
  const description = [subject.culprit && `Culprit: ${subject.culprit}`, `Level: ${subject.level}`, `Issue: ${url}`].filter(Boolean).join('\n');
  return {
    title: `[${subject.shortId}] ${subject.title}`.slice(0, 255),
    description,
    issue: {
      id: subject.issueId,
      shortId: subject.shortId,
      organizationId: subject.organizationId,
      projectId: subject.projectId,
      level: subject.level,
      url,
    },
  };
}

/** Seconds before the next attempt after `attempts` failed ones; the schedule's last step repeats. */
export function retryDelaySeconds(attempts: number, schedule: readonly number[]): number {
  return schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1];
}

/** How a tracker call ended, as the worker records it. */
export type CallOutcome =
  | { readonly kind: 'opened'; readonly externalId: string; readonly url: string | null }
  | { readonly kind: 'retry'; readonly error: string }
  | { readonly kind: 'failed'; readonly error: string };

/**
 * Sorts a tracker answer. 408, 425, 429 and 5xx are worth another try (the same key makes that
 * safe); any other 4xx will not get better by repeating it, so the ticket waits for a person.
 */
export function outcomeOf(status: number, body: string): CallOutcome {
  if (status >= 200 && status < 300) {
    let answer: { id?: unknown; url?: unknown } | undefined;
    try {
      answer = JSON.parse(body) as { id?: unknown; url?: unknown };
    } catch {
      answer = undefined;
    }
    const id = answer?.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
      return { kind: 'failed', error: `tracker answered ${status} without a ticket id` };
    }
    return { kind: 'opened', externalId: String(id), url: typeof answer?.url === 'string' ? answer.url : null };
  }
  const summary = `tracker answered ${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
  if (status === 408 || status === 425 || status === 429 || status >= 500) return { kind: 'retry', error: summary };
  return { kind: 'failed', error: summary };
}
