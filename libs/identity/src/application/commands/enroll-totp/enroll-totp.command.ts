/** Enrols an authenticator app: the secret it was given and a code it shows now. */
export class EnrollTotpCommand {
  constructor(
    readonly userId: string,
    readonly secret: string,
    readonly code: string,
  ) {}
}
