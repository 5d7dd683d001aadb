/** RFC 7644 §3.12 error types. */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue';

/** A failure to answer in SCIM's error format: an HTTP status, a detail and, for 400s and 409s, a scimType. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  static badRequest(scimType: ScimType, detail: string): ScimError {
    return new ScimError(400, detail, scimType);
  }

  static notFound(detail = 'The requested resource does not exist'): ScimError {
    return new ScimError(404, detail);
  }
}
