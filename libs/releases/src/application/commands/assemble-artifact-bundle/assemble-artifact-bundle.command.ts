/** Joins uploaded chunks into an artifact bundle and stores its files, for these projects (and release and dist). */
export class AssembleArtifactBundleCommand {
  constructor(
    readonly organizationId: string,
    readonly checksum: string,
    readonly chunks: readonly string[],
    readonly projectIds: readonly string[],
    readonly release: string | null,
    readonly dist: string | null,
  ) {}
}

/** sentry-cli's answer: `not_found` lists the chunks still to upload; `ok` and `error` are final. */
export interface AssembleResult {
  state: 'ok' | 'error' | 'not_found';
  missingChunks: string[];
  detail: string | null;
}
