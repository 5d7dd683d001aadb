import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { AUTH_PROVIDER_STREAM_TYPE, authProviderDeleted, authProviderStream } from '../../../domain/auth-provider.events';
import { AuthProviderRepository } from '../../../infrastructure/auth-provider.repository';
import { DeleteAuthProviderCommand } from './delete-auth-provider.command';

@CommandHandler(DeleteAuthProviderCommand)
export class DeleteAuthProviderHandler implements ICommandHandler<DeleteAuthProviderCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: AuthProviderRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute({ organizationId, metadata }: DeleteAuthProviderCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      if (!(await this.repository.delete(tx, organizationId))) throw DomainError.notFound();
      await this.events.record(tx, authProviderStream(organizationId), AUTH_PROVIDER_STREAM_TYPE, [authProviderDeleted({ organizationId })], { metadata });
      tx.afterCommit(() => this.cache.clear());
    });
  }
}
