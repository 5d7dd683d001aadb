/**
 * The one statement behind project detail (parameters: organization id, project id or slug, user
 * id), published so that the benchmark's bare route runs exactly the SQL the service runs. Other
 * contexts ask FindProjectQuery.
 */
export abstract class ProjectDetailStatement {
  abstract text(idOrSlug: string): string;
}
