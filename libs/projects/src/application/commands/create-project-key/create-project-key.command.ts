export class CreateProjectKeyCommand {
  constructor(
    readonly projectId: string,
    readonly label: string,
    readonly rateLimit?: { count: number; window: number },
  ) {}
}
