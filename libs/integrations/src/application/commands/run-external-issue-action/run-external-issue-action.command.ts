/**
 * A user creates a ticket in the app, or links an existing one, from an issue (the app's
 * `issue-link` component): the service posts the form to the app's URI and keeps the link the app
 * answers.
 */
export class RunExternalIssueActionCommand {
  constructor(
    readonly installationUuid: string,
    readonly issue: { readonly id: string; readonly projectId: string; readonly projectSlug: string; readonly organizationSlug: string },
    readonly action: 'create' | 'link',
    readonly uri: string,
    readonly fields: Record<string, unknown>,
    readonly userId: string | null,
  ) {}
}
