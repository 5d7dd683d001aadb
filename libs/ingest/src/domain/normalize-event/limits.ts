/** How much of each field an event keeps: one event cannot bloat storage. */
export const EVENT_LIMITS = Object.freeze({
  message: 8192,
  title: 200,
  culprit: 200,
  tagKey: 200,
  tagValue: 200,
  maxTags: 200,
  exceptionType: 256,
  exceptionValue: 8192,
  maxExceptions: 25,
  maxFrames: 250,
  /** When frames are dropped, this many of the oldest are kept; the rest are the newest. */
  keptOldestFrames: 50,
  path: 1024,
  symbol: 256,
  contextLine: 1024,
  contextLines: 10,
  shortField: 64,
  field: 256,
  release: 200,
  url: 2048,
  headerValue: 4096,
  maxPairs: 100,
  fingerprintEntries: 50,
  fingerprintEntry: 200,
  dataString: 4096,
  dataDepth: 8,
  dataArray: 100,
  dataKeys: 200,
  /** Breadcrumb data, frame variables and mechanism data: many per event, so smaller bags. */
  smallData: Object.freeze({ depth: 5, string: 1024, array: 50, keys: 50 }),
  /** The newest are kept, as the SDKs' own default of 100 does. */
  maxBreadcrumbs: 100,
  maxThreads: 100,
  maxModules: 1000,
  maxDebugImages: 1000,
  maxIntegrations: 100,
  /** Sentry moves timestamps more than a minute ahead of arrival to the arrival time. */
  maxFutureMs: 60_000,
  /** ...and those older than 30 days too. */
  maxPastMs: 30 * 24 * 60 * 60 * 1000,
});
