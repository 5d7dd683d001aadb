// What the normaliser answers: one strict shape for an SDK event of any age or language.

export type EventLevel = 'fatal' | 'error' | 'warning' | 'info' | 'debug';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A key/value list in the order sent, as Sentry's API shows tags, headers and query strings. */
export type StringPairs = Array<[string, string]>;

export interface NormalizedFrame {
  filename?: string;
  absPath?: string;
  function?: string;
  rawFunction?: string;
  module?: string;
  package?: string;
  platform?: string;
  symbol?: string;
  lineno?: number;
  colno?: number;
  inApp?: boolean;
  contextLine?: string;
  preContext?: string[];
  postContext?: string[];
  /** The frame's local variables, as the SDK serialised them. */
  vars?: JsonObject;
  instructionAddr?: string;
  symbolAddr?: string;
  imageAddr?: string;
  addrMode?: string;
  trust?: string;
}

export interface NormalizedStacktrace {
  /** Oldest call first, the frame that threw last, as Sentry SDKs send them. */
  frames: NormalizedFrame[];
  /** `[start, end]` of frames the SDK left out. */
  framesOmitted?: [number, number];
  registers?: Record<string, string>;
}

export interface NormalizedMechanism {
  type?: string;
  handled?: boolean;
  synthetic?: boolean;
  description?: string;
  helpLink?: string;
  source?: string;
  exceptionId?: number;
  parentId?: number;
  isExceptionGroup?: boolean;
  data?: JsonObject;
  meta?: JsonObject;
}

export interface NormalizedException {
  type?: string;
  value?: string;
  module?: string;
  threadId?: string | number;
  mechanism?: NormalizedMechanism;
  stacktrace?: NormalizedStacktrace;
  /** The stack trace as the SDK sent it, when `stacktrace` was mapped through source maps. */
  rawStacktrace?: NormalizedStacktrace;
}

/** A problem met while processing the event (e.g. a missing source map), as Sentry lists them. */
export interface ProcessingErrorEntry {
  type: string;
  message: string;
  data: Record<string, string | number>;
}

export interface NormalizedThread {
  id?: string | number;
  name?: string;
  crashed?: boolean;
  current?: boolean;
  main?: boolean;
  state?: string;
  stacktrace?: NormalizedStacktrace;
}

export interface NormalizedBreadcrumb {
  /** As sent (seconds since the epoch, or RFC 3339), read when shown: most crumbs are never read. */
  timestamp?: number | string;
  type?: string;
  category?: string;
  level?: EventLevel;
  message?: string;
  data?: JsonObject;
  eventId?: string;
}

export interface NormalizedGeo {
  countryCode?: string;
  city?: string;
  subdivision?: string;
  region?: string;
}

export interface NormalizedUser {
  id?: string;
  email?: string;
  username?: string;
  ipAddress?: string;
  name?: string;
  geo?: NormalizedGeo;
  /** `user.data` and any other fields the SDK set on the user, as Relay keeps them. */
  data?: JsonObject;
}

export interface NormalizedRequest {
  url?: string;
  method?: string;
  headers?: StringPairs;
  query?: StringPairs;
  fragment?: string;
  cookies?: StringPairs;
  data?: JsonValue;
  env?: JsonObject;
  /** From the body when it parses as JSON or a form, else the Content-Type header, as Relay infers it. */
  inferredContentType?: string;
}

export interface NormalizedSdk {
  name?: string;
  version?: string;
  integrations?: string[];
  packages?: Array<{ name: string; version: string }>;
}

export interface NormalizedDebugMeta {
  images?: JsonObject[];
  sdkInfo?: JsonObject;
  isDebugBuild?: boolean;
}

/** Browser security reports (`csp`, `hpkp`, `expectct`, `expectstaple`, `nel`), kept as sent. */
export const SECURITY_REPORT_TYPES = ['csp', 'hpkp', 'expectct', 'expectstaple', 'nel'] as const;
export type SecurityReportType = (typeof SECURITY_REPORT_TYPES)[number];

export interface NormalizedEvent {
  /** 32 lowercase hex. */
  eventId: string;
  /** ISO 8601 with milliseconds and `Z`. */
  timestamp: string;
  /** When Faultline received it (ISO), for clock-drift diagnosis. */
  receivedAt: string;
  level: EventLevel;
  platform: string;
  logger?: string;
  /** The formatted message. */
  message?: string;
  /** The message before its params were applied, when it had params: the better grouping key. */
  messageTemplate?: string;
  /** The params applied to the template (a list, or an object for named params). */
  messageParams?: JsonValue;
  /** Chained exceptions, oldest (the cause) first; the last one is the one that was thrown. */
  exceptions: NormalizedException[];
  /** An event-level stack trace (e.g. `captureMessage` with `attachStacktrace`). */
  stacktrace?: NormalizedStacktrace;
  threads?: NormalizedThread[];
  /** Oldest first, at most `EVENT_LIMITS.maxBreadcrumbs` (the newest). */
  breadcrumbs?: NormalizedBreadcrumb[];
  tags: StringPairs;
  user?: NormalizedUser;
  release?: string;
  environment: string;
  dist?: string;
  serverName?: string;
  transaction?: string;
  contexts?: JsonObject;
  request?: NormalizedRequest;
  sdk?: NormalizedSdk;
  fingerprint?: string[];
  extra?: JsonObject;
  /** Installed packages and their versions. */
  modules?: Record<string, string>;
  /** A rendered template that failed (Django and the like), shaped like a stack frame. */
  template?: NormalizedFrame;
  debugMeta?: NormalizedDebugMeta;
  securityReports?: Partial<Record<SecurityReportType, JsonObject>>;
  /** Problems met while processing the event, shown as the event API's `errors`. */
  errors?: ProcessingErrorEntry[];
  culprit: string;
  title: string;
  /**
   * Sentry's `_meta`: what data scrubbing changed, by path in this event (`{"": {"rem": [[rule,
   * "s", start, end]], "len": original length}}` at each changed value).
   */
  _meta?: JsonObject;
}

export interface NormalizeContext {
  receivedAt: Date;
  /** The client's address, which replaces a user `ip_address` of `{{auto}}`. */
  clientIp?: string;
  /** Platform when the event names none (e.g. the project's platform). */
  platformFallback?: string;
  /** The envelope header's event_id, used when the payload carries none (as Relay does). */
  eventId?: string;
  /** The id of an event that carries no valid one (nor its envelope): minted by the caller, so the domain mints nothing. */
  newEventId: string;
}
