import { DomainError } from '@faultline/kernel';
import { SAVED_SEARCH_LIMITS, type SavedSearchVisibility } from '../../../domain';
import { parseIssueSort, scanSearchQuery } from '../../queries/issue-search';
import type { SavedSearchFields } from '../../../infrastructure/saved-searches.repository';

/**
 * A saved search's fields as the stream will use them: a name, a query in the search syntax (its
 * length and term limits, balanced quotes), and one of the stream's sorts.
 */
export function checkSavedSearchFields(fields: { name: string; query: string; sort: string; visibility: SavedSearchVisibility }): SavedSearchFields {
  const name = fields.name.trim();
  if (name === '' || name.length > SAVED_SEARCH_LIMITS.nameLength) {
    throw DomainError.invalid(`name: give a name of 1 to ${SAVED_SEARCH_LIMITS.nameLength} characters.`);
  }
  scanSearchQuery(fields.query);
  return { name, query: fields.query.trim(), sort: parseIssueSort(fields.sort), visibility: fields.visibility };
}
