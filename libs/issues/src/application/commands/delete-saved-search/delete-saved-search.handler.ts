import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { checkMayChange } from '../../../domain';
import { SavedSearchesRepository } from '../../../infrastructure/saved-searches.repository';
import { DeleteSavedSearchCommand } from './delete-saved-search.command';

/** The same rule as changing: the owner's own, or an organization's with `org:write`. */
@CommandHandler(DeleteSavedSearchCommand)
export class DeleteSavedSearchHandler implements ICommandHandler<DeleteSavedSearchCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly searches: SavedSearchesRepository,
  ) {}

  async execute({ organizationId, searchId, actor }: DeleteSavedSearchCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const current = await this.searches.find(tx, organizationId, searchId, true);
      if (!current) throw DomainError.notFound();
      checkMayChange({ ownerId: current.owner_id, visibility: current.visibility }, actor);
      await this.searches.delete(tx, current.id);
    });
  }
}
