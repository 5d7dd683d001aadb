import type { SavedSearchActor, SavedSearchVisibility } from '../../../domain';

/** Changes a saved search (Sentry's `PUT /organizations/{org}/searches/{id}/`); absent fields stay. */
export class UpdateSavedSearchCommand {
  constructor(
    readonly organizationId: string,
    readonly searchId: string,
    readonly actor: SavedSearchActor,
    readonly changes: { readonly name?: string; readonly query?: string; readonly sort?: string; readonly visibility?: SavedSearchVisibility },
  ) {}
}
