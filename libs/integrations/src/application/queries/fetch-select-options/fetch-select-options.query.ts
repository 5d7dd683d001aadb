/** Options of a select field of an app's UI component, fetched from the app's declared URI. */
export class FetchSelectOptionsQuery {
  constructor(
    readonly installationUuid: string,
    readonly uri: string,
    readonly project: { readonly id: string; readonly slug: string } | null,
    readonly query: string | undefined,
    readonly dependentData: string | undefined,
  ) {}
}

export interface SelectOptions {
  readonly choices: Array<[unknown, unknown]>;
  readonly defaultValue?: unknown;
}
