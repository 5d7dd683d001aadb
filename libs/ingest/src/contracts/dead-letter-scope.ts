/** Which dead letters a command or query is about: a project's or an organization's (else the instance's), some (else all). */
export interface DeadLetterScope {
  readonly organizationId?: string;
  readonly projectId?: string;
  readonly ids?: readonly string[];
}
