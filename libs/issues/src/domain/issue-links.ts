/** An issue's page in the web UI: Sentry's `permalink`, and the link webhooks and tickets show. */
export function issueUrl(publicUrl: string, organization: string, issueId: string): string {
  return `${publicUrl}/organizations/${organization}/issues/${issueId}/`;
}

/** One event's page under its issue in the web UI. */
export function issueEventUrl(publicUrl: string, organization: string, issueId: string, eventId: string): string {
  return `${issueUrl(publicUrl, organization, issueId)}events/${eventId}/`;
}

/** The issue's API resource; `organization` is the organization's slug or id, as the route takes either. */
export function issueApiUrl(publicUrl: string, organization: string, issueId: string): string {
  return `${publicUrl}/api/0/organizations/${organization}/issues/${issueId}/`;
}
