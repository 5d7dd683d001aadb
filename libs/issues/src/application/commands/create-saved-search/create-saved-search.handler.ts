import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { checkBudget, checkVisibility, duplicateQuery } from '../../../domain';
import { type SavedSearchRow, SavedSearchesRepository } from '../../../infrastructure/saved-searches.repository';
import { checkSavedSearchFields } from '../update-saved-search/saved-search-fields';
import { CreateSavedSearchCommand } from './create-saved-search.command';

/** A new search is its creator's unless shared with the organization; budgets and duplicates are checked under the organization's lock. */
@CommandHandler(CreateSavedSearchCommand)
export class CreateSavedSearchHandler implements ICommandHandler<CreateSavedSearchCommand, SavedSearchRow> {
  constructor(
    private readonly database: Database,
    private readonly searches: SavedSearchesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, actor, fields }: CreateSavedSearchCommand): Promise<SavedSearchRow> {
    const search = checkSavedSearchFields({ ...fields, sort: fields.sort ?? 'date', visibility: fields.visibility ?? 'owner' });
    checkVisibility(search.visibility, actor);
    const ownerId = actor.userId ?? null;
    const at = this.clock.now();
    return this.database.transaction(async (tx) => {
      await this.searches.lockOrganization(tx, organizationId);
      checkBudget(search.visibility, await this.searches.countOf(tx, organizationId, search.visibility, ownerId));
      if (await this.searches.hasQuery(tx, organizationId, search, ownerId)) throw duplicateQuery(search.query);
      return this.searches.insert(tx, organizationId, ownerId, search, at);
    });
  }
}
