/** The JavaScript loader versions a key can serve, as Sentry offers them. */
export const BROWSER_SDK_VERSIONS = ['latest', '7.x'] as const;

/** What Sentry's loader script bundles, all off until a key's settings turn them on. */
export const DEFAULT_LOADER_OPTIONS = Object.freeze({
  hasReplay: false,
  hasPerformance: false,
  hasDebug: false,
  hasFeedback: false,
  hasLogsAndMetrics: false,
});
