import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { API_TOKEN_STREAM_TYPE, apiTokenRevoked, apiTokenStream } from '../../../domain/identity.events';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { IdentityRepository } from '../../../infrastructure/identity.repository';
import { RevokeApiTokenCommand } from './revoke-api-token.command';

@CommandHandler(RevokeApiTokenCommand)
export class RevokeApiTokenHandler implements ICommandHandler<RevokeApiTokenCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute({ tokenId, owner }: RevokeApiTokenCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const token = await this.repository.findToken(tx, owner, tokenId);
      if (!token) throw DomainError.notFound();
      await this.repository.deleteToken(tx, token.id);
      await this.events.record(tx, apiTokenStream(token.id), API_TOKEN_STREAM_TYPE, [
        apiTokenRevoked({ tokenId: token.id, kind: token.kind, userId: token.user_id ?? undefined, organizationId: token.organization_id ?? undefined }),
      ]);
      tx.afterCommit(() => this.cache.clear());
    });
  }
}
