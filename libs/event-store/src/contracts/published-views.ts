/** The views other contexts may read in SQL: the recorded events, read-only (see docs/extending.md). */
export const EVENT_STORE_PUBLISHED_VIEWS = ['event_store.stream_events'] as const;
