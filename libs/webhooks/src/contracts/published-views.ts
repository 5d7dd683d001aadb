/** The views other contexts may read in SQL: the delivery log without bodies or secrets (see docs/extending.md). */
export const WEBHOOKS_PUBLISHED_VIEWS = ['webhooks.delivery_log'] as const;
