export class RemoveAuthenticatorCommand {
  constructor(
    readonly userId: string,
    readonly authenticatorId: string,
  ) {}
}
