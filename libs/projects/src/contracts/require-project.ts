import { NotFoundException } from '@nestjs/common';
import type { QueryBus } from '@nestjs/cqrs';
import { FindProjectQuery, type ProjectSummary } from '../application/queries/find-project.query';

/** The organization's project by id or slug, or a 404 for the caller's request. */
export async function requireProject(queries: QueryBus, organizationId: string, idOrSlug: string): Promise<ProjectSummary> {
  const project = await queries.execute<FindProjectQuery, ProjectSummary | null>(new FindProjectQuery(organizationId, idOrSlug));
  if (!project) throw new NotFoundException();
  return project;
}
