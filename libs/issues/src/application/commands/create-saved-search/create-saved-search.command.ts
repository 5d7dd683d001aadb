import type { SavedSearchActor, SavedSearchVisibility } from '../../../domain';

/** Saves an issue search (Sentry's `POST /organizations/{org}/searches/`). */
export class CreateSavedSearchCommand {
  constructor(
    readonly organizationId: string,
    readonly actor: SavedSearchActor,
    readonly fields: { readonly name: string; readonly query: string; readonly sort?: string; readonly visibility?: SavedSearchVisibility },
  ) {}
}
