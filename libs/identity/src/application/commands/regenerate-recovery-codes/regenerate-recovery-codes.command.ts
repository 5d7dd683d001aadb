export class RegenerateRecoveryCodesCommand {
  constructor(readonly userId: string) {}
}
