import { DomainError } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import type { CommitInput, ReleasesRepository } from '../../infrastructure/releases.repository';

/** Heads (`refs`) may name only repositories the organization has, as in Sentry. */
export async function requireKnownRepositories(sql: Sql, releases: ReleasesRepository, organizationId: string, commits: readonly CommitInput[]): Promise<void> {
  const names = [...new Set(commits.map((commit) => commit.repository).filter((name): name is string => name !== null))];
  const unknown = await releases.unknownRepositories(sql, organizationId, names);
  if (unknown.length > 0)
    throw DomainError.invalid(`Invalid repository names: ${unknown.join(', ')}`, { errors: { refs: [`Invalid repository names: ${unknown.join(', ')}`] } });
}
