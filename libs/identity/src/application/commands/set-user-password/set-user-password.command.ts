export class SetUserPasswordCommand {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {}
}
