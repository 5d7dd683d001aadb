/** The views other contexts may read in SQL: the read models ingest keeps (see docs/extending.md). */
export const INGEST_PUBLISHED_VIEWS = ['ingest.project_tag_values', 'ingest.project_event_users'] as const;
