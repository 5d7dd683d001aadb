import type { Scope } from '@faultline/kernel';
import type { TokenKind } from '../../../domain/api-token';

export class CreateApiTokenCommand {
  constructor(
    readonly kind: TokenKind,
    readonly owner: { userId?: string; organizationId?: string },
    readonly name: string,
    readonly scopes: readonly string[],
    /** What the creator holds; the new token gets no more. */
    readonly creatorScopes: ReadonlySet<Scope>,
    /** An operator-chosen value (bootstrap); otherwise a random token is issued. */
    readonly plaintext?: string,
  ) {}
}
