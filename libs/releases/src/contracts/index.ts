export { SourceMapSymbolicator, type SymbolicationRequest, type SymbolicationResult } from './source-map-symbolicator';
export { ReleaseSightings, type ReleaseEventSeen } from './release-sightings';
export type { JsFrame, ProcessingError, ProcessingErrorType } from '../domain/symbolicate-frames';
export { ReleaseEventTypes } from '../domain/release.events';
export { OrganizationStorageQuota, StorageQuotaExceeded } from './organization-storage-quota';
export { SessionIntake, type SessionInput } from './session-intake';
export { ProjectSessionCounts, type ProjectSessionsQuery, sessionsKey } from './project-session-counts';
