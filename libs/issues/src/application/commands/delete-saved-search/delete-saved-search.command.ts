import type { SavedSearchActor } from '../../../domain';

/** Deletes a saved search (Sentry's `DELETE /organizations/{org}/searches/{id}/`). */
export class DeleteSavedSearchCommand {
  constructor(
    readonly organizationId: string,
    readonly searchId: string,
    readonly actor: SavedSearchActor,
  ) {}
}
