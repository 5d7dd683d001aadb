import { domainEvent } from '@faultline/kernel';

/** Changes of releases, recorded on `release-<id>` with who made them. */
export const ReleaseEventTypes = {
  ReleaseCreated: 'releases.ReleaseCreated',
  ReleaseUpdated: 'releases.ReleaseUpdated',
  ReleaseDeleted: 'releases.ReleaseDeleted',
  DeployCreated: 'releases.DeployCreated',
  ArtifactBundleAssembled: 'releases.ArtifactBundleAssembled',
  ArtifactBundleAttached: 'releases.ArtifactBundleAttached',
} as const;

export const RELEASE_STREAM_TYPE = 'release';
export const releaseStream = (releaseId: string): string => `release-${releaseId}`;
export const ARTIFACT_BUNDLE_STREAM_TYPE = 'artifact-bundle';
export const artifactBundleStream = (organizationId: string, checksum: string): string => `artifact-bundle-${organizationId}-${checksum}`;

export const releaseEvent = (type: (typeof ReleaseEventTypes)[keyof typeof ReleaseEventTypes], data: Record<string, unknown>) =>
  domainEvent(type, JSON.parse(JSON.stringify(data)) as Record<string, unknown>);
