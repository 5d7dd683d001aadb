/** The API's shapes the issue pages read (Sentry's, as the coverage table of docs/api.md lists them). */

export type StatsPoint = [number, number];

export interface Release {
  version: string;
  shortVersion: string;
  dateCreated: string | null;
}

export interface Issue {
  id: string;
  shortId: string;
  permalink: string;
  title: string;
  culprit: string | null;
  level: string;
  status: string;
  substatus?: string | null;
  statusDetails: Record<string, unknown>;
  count: string;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  project: { id: string; slug: string; name: string };
  assignedTo: { type: string; id: string; name: string; email?: string } | null;
  metadata: { type?: string; value?: string; title?: string };
  numComments: number;
  isUnhandled?: boolean;
  isBookmarked?: boolean;
  stats?: Record<string, StatsPoint[]>;
}

/** A saved issue search (Sentry's `/searches/`). */
export interface SavedSearch {
  id: string;
  name: string;
  query: string;
  sort: string;
  visibility: 'owner' | 'organization';
}

export interface Activity {
  id: string;
  type: string;
  data: Record<string, any>;
  dateCreated: string;
  user: { id: string; name: string | null } | null;
}

export interface IssueDetail extends Issue {
  activity: Activity[];
  firstRelease: Release | null;
  lastRelease: Release | null;
}

export interface Frame {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  module: string | null;
  package?: string | null;
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
  context: Array<[number, string]>;
  vars?: Record<string, unknown> | null;
}

export interface Stacktrace {
  frames: Frame[];
}

export interface ExceptionValue {
  type: string | null;
  value: string | null;
  module?: string | null;
  mechanism?: { type?: string; handled?: boolean } | null;
  stacktrace: Stacktrace | null;
  /** The frames as the SDK sent them, when source maps changed them. */
  rawStacktrace?: Stacktrace | null;
}

export interface Breadcrumb {
  type?: string;
  timestamp: string | null;
  level?: string | null;
  message?: string | null;
  category?: string | null;
  data?: Record<string, unknown> | null;
}

export interface RequestData {
  method?: string | null;
  url?: string | null;
  query?: Array<[string, string]> | string | null;
  fragment?: string | null;
  data?: unknown;
  headers?: Array<[string, string]> | null;
  cookies?: Array<[string, string]> | null;
  env?: Record<string, unknown> | null;
}

export interface EventEntry {
  type: string;
  data: any;
}

export interface IssueEvent {
  id: string;
  eventID: string;
  title: string;
  message: string;
  dateCreated: string;
  platform?: string | null;
  environment?: string | null;
  release?: { version: string } | null;
  user: Record<string, unknown> | null;
  tags: Array<{ key: string; value: string }>;
  entries: EventEntry[];
  contexts: Record<string, Record<string, unknown>>;
  context: Record<string, unknown>;
  sdk?: { name?: string; version?: string } | null;
  nextEventID: string | null;
  previousEventID: string | null;
}

export interface TagDistribution {
  key: string;
  name: string;
  totalValues: number;
  uniqueValues?: number;
  topValues: Array<{ value: string; name: string; count: number }>;
}

export interface Member {
  id: string;
  email: string;
  user: { id: string; name: string } | null;
}

export interface Team {
  id: string;
  slug: string;
  name: string;
}
