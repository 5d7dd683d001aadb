export class SignInCommand {
  constructor(
    readonly email: string,
    readonly password: string,
    /** How long the session lasts. */
    readonly ttlMs: number,
    readonly client: { userAgent: string | null; ipAddress: string | null },
  ) {}
}
