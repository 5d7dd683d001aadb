export interface ProjectChanges {
  readonly name?: string;
  readonly slug?: string;
  readonly platform?: string | null;
  readonly features?: string[];
  readonly isBookmarked?: boolean;
  readonly dataScrubber?: boolean;
  readonly dataScrubberDefaults?: boolean;
  readonly sensitiveFields?: string[];
  readonly safeFields?: string[];
  readonly scrubIPAddresses?: boolean;
  readonly storeCrashReports?: number | null;
}

export class UpdateProjectCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly changes: ProjectChanges,
    readonly actor: { userId?: string; canWrite: boolean; isOwner: boolean },
  ) {}
}
