export * from './issue.events';
export * from './issue.aggregate';
export * from './short-id';
export * from './event-tags';
export { latestRelease, shortReleaseVersion } from './release-order';
export * from './issue-links';
