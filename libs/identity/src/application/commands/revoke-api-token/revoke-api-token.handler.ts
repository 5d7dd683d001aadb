import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { apiTokenRevoked, ORGANIZATION_STREAM_TYPE, organizationStream, USER_STREAM_TYPE, userStream } from '../../../domain/identity.events';
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
      const [stream, streamType] = token.kind === 'user'
        ? [userStream(token.user_id as string), USER_STREAM_TYPE]
        : [organizationStream(token.organization_id as string), ORGANIZATION_STREAM_TYPE];
      await this.events.record(tx, stream, streamType, [
        apiTokenRevoked({ tokenId: token.id, kind: token.kind, userId: token.user_id ?? undefined, organizationId: token.organization_id ?? undefined }),
      ]);
      tx.afterCommit(() => this.cache.clear());
    });
  }
}
