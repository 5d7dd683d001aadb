/** The owner of a public app asks an instance administrator to publish it. */
export class RequestPublicationCommand {
  constructor(
    readonly slug: string,
    readonly userId: string | null,
  ) {}
}
