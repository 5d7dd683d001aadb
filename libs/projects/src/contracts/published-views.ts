/** The views other contexts may read in SQL: projects' published reads (see docs/extending.md). */
export const PROJECTS_PUBLISHED_VIEWS = ['projects.project_directory'] as const;
