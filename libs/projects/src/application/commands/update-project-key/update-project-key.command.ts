export interface DynamicSdkLoaderOptions {
  readonly hasReplay?: boolean;
  readonly hasPerformance?: boolean;
  readonly hasDebug?: boolean;
  readonly hasFeedback?: boolean;
  readonly hasLogsAndMetrics?: boolean;
}

/** Sentry's key update: absent fields stay as they are; a null rate limit removes it. */
export interface ProjectKeyChanges {
  readonly name?: string;
  readonly isActive?: boolean;
  readonly rateLimit?: { count: number; window: number } | null;
  readonly browserSdkVersion?: string;
  readonly dynamicSdkLoaderOptions?: DynamicSdkLoaderOptions;
}

export class UpdateProjectKeyCommand {
  constructor(
    readonly projectId: string,
    /** The key's public part, its id in the API. */
    readonly publicKey: string,
    readonly changes: ProjectKeyChanges,
  ) {}
}
