/** The OAuth token endpoint of an installation: a grant code or a refresh token, with the app's client credentials. */
export class AuthorizeInstallationCommand {
  constructor(
    readonly installationUuid: string,
    readonly request: {
      readonly grantType: string | undefined;
      readonly code: string | undefined;
      readonly refreshToken: string | undefined;
      readonly clientId: string | undefined;
      readonly clientSecret: string | undefined;
    },
  ) {}
}

export interface AuthorizedToken {
  readonly id: string;
  readonly token: string;
  readonly refreshToken: string;
  readonly expiresAt: string;
  readonly dateCreated: string;
  readonly scopes: string[];
  readonly application: null;
  readonly state: null;
}
