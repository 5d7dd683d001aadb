export class UpdateOrganizationCommand {
  constructor(
    readonly organizationId: string,
    readonly changes: {
      name?: string;
      slug?: string;
      plan?: string;
      features?: string[];
      require2FA?: boolean;
      attachmentsRole?: string;
      dataScrubber?: boolean;
      dataScrubberDefaults?: boolean;
      sensitiveFields?: string[];
      safeFields?: string[];
      scrubIPAddresses?: boolean;
      storeCrashReports?: number | null;
    },
    /** Only an instance administrator may change the plan or the feature flags. */
    readonly actorIsSuperuser: boolean,
    /** The user making the change; requiring two-factor takes a user who has it. */
    readonly actorUserId?: string,
  ) {}
}
