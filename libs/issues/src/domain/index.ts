export * from './issue.events';
export * from './issue.aggregate';
export * from './short-id';
export * from './event-tags';
export { tagKeyLabel } from './tag-key-label';
export { latestRelease, shortReleaseVersion } from './release-order';
export * from './issue-links';
export * from './saved-search';
export { ownershipSubjectOf } from './ownership-subject';
