import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { checkBudget, checkMayChange, checkVisibility, duplicateQuery } from '../../../domain';
import { type SavedSearchRow, SavedSearchesRepository } from '../../../infrastructure/saved-searches.repository';
import { checkSavedSearchFields } from './saved-search-fields';
import { UpdateSavedSearchCommand } from './update-saved-search.command';

/**
 * Only the owner changes their own search; an organization's needs `org:write`. Making a search the
 * organization's keeps its creator; making an organization's search private makes it the changer's.
 */
@CommandHandler(UpdateSavedSearchCommand)
export class UpdateSavedSearchHandler implements ICommandHandler<UpdateSavedSearchCommand, SavedSearchRow> {
  constructor(
    private readonly database: Database,
    private readonly searches: SavedSearchesRepository,
  ) {}

  async execute({ organizationId, searchId, actor, changes }: UpdateSavedSearchCommand): Promise<SavedSearchRow> {
    return this.database.transaction(async (tx) => {
      await this.searches.lockOrganization(tx, organizationId);
      const current = await this.searches.find(tx, organizationId, searchId, true);
      if (!current) throw DomainError.notFound();
      checkMayChange({ ownerId: current.owner_id, visibility: current.visibility }, actor);
      const next = checkSavedSearchFields({
        name: changes.name ?? current.name,
        query: changes.query ?? current.query,
        sort: changes.sort ?? current.sort,
        visibility: changes.visibility ?? current.visibility,
      });
      checkVisibility(next.visibility, actor);
      const ownerId = current.visibility === 'organization' && next.visibility === 'owner' ? (actor.userId ?? null) : current.owner_id;
      if (next.visibility !== current.visibility || ownerId !== current.owner_id) {
        checkBudget(next.visibility, await this.searches.countOf(tx, organizationId, next.visibility, ownerId));
      }
      if (await this.searches.hasQuery(tx, organizationId, next, ownerId, current.id)) throw duplicateQuery(next.query);
      return this.searches.update(tx, current.id, ownerId, next);
    });
  }
}
