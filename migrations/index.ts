import { EventStore1763800000000 } from './1763800000000-event-store';
import { IdentityAndProjects1763800000100 } from './1763800000100-identity-and-projects';
import { IngestAndIssues1763800000200 } from './1763800000200-ingest-and-issues';
import { InboundFilters1763800000300 } from './1763800000300-inbound-filters';
import { IngestWritePath1763800000400 } from './1763800000400-ingest-write-path';
import { Webhooks1763800000500 } from './1763800000500-webhooks';
import { Scim1763800000600 } from './1763800000600-scim';
import { Integrations1763800000700 } from './1763800000700-integrations';
import { Alerts1763800000800 } from './1763800000800-alerts';
import { WebSessions1763800000900 } from './1763800000900-web-sessions';
import { WebhookDeliveryQueue1763800001000 } from './1763800001000-webhook-delivery-queue';
import { IngestQueueUpkeep1763800001100 } from './1763800001100-ingest-queue-upkeep';
import { IngestQueueCompression1763800001200 } from './1763800001200-ingest-queue-compression';
import { IssueIgnoreCount1763800001300 } from './1763800001300-issue-ignore-count';
import { ProjectKeySettings1763800001400 } from './1763800001400-project-key-settings';
import { IssueReleasesAndStats1763800001500 } from './1763800001500-issue-releases-and-stats';
import { IssueTagValues1763800001600 } from './1763800001600-issue-tag-values';
import { IngestDeadLetters1763800001700 } from './1763800001700-ingest-dead-letters';
import { InstallationScopes1763800001800 } from './1763800001800-installation-scopes';
import { ScimMembershipUserName1763800001900 } from './1763800001900-scim-membership-user-name';
import { IssueSearchIndexes1763800002100 } from './1763800002100-issue-search-indexes';
import { Notifications1763800002500 } from './1763800002500-notifications';
import { MemberInvites1763800002550 } from './1763800002550-member-invites';
import { Releases1763800002600 } from './1763800002600-releases';
import { EventSearchIndex1763800002800 } from './1763800002800-event-search-index';
import { UserReports1763800002900 } from './1763800002900-user-reports';
import { ContextSchemas1763800003000 } from './1763800003000-context-schemas';
import { IngestQueueClaims1763800003140 } from './1763800003140-ingest-queue-claims';
import { IngestRateWindowCategories1763800003150 } from './1763800003150-ingest-rate-window-categories';
import { InviteMails1763800003270 } from './1763800003270-invite-mails';
import { ReleasesStorageBudget1763800003570 } from './1763800003570-releases-storage-budget';
import { DataPrivacySettings1764100000000 } from './1764100000000-data-privacy-settings';
import { OutcomesByCategory1764200000000 } from './1764200000000-outcomes-by-category';
import { OrganizationRateLimits1764300000000 } from './1764300000000-organization-rate-limits';
import { EventAttachments1764400000000 } from './1764400000000-event-attachments';
import { Monitors1764500000000 } from './1764500000000-monitors';
import { ReleaseHealth1764600000000 } from './1764600000000-release-health';
import { SingleSignOn1764700000000 } from './1764700000000-single-sign-on';
import { TwoFactor1764800000000 } from './1764800000000-two-factor';
import { RetentionIndexes1764850000000 } from './1764850000000-retention-indexes';
import { OpenIdConnect1764900000000 } from './1764900000000-openid-connect';
import { SecurityKeys1765000000000 } from './1765000000000-security-keys';
import { UnhandledAndEventTags1765300000000 } from './1765300000000-unhandled-and-event-tags';
import { IssueBookmarksAndSavedSearches1765400000000 } from './1765400000000-issue-bookmarks-and-saved-searches';
import { IssueMerges1765600000000 } from './1765600000000-issue-merges';
import { IssueEventMoves1765700000000 } from './1765700000000-issue-event-moves';
import { AlertCountsByEnvironmentAndLevel1765710000000 } from './1765710000000-alert-counts-by-environment-and-level';
import { ProjectOwnership1765720000000 } from './1765720000000-project-ownership';
import { ProjectTransfersAndBundleIds1765730000000 } from './1765730000000-project-transfers-and-bundle-ids';
import { PartitionedErrorEvents1765800000000 } from './1765800000000-partitioned-error-events';
import { PartitionedClaimsAndIssueStats1765900000000 } from './1765900000000-partitioned-claims-and-issue-stats';
import { PartitionedIngestStats1765910000000 } from './1765910000000-partitioned-ingest-stats';
import { PartitionedAlertMinutes1765920000000 } from './1765920000000-partitioned-alert-minutes';
import { IssueFirstException1765930000000 } from './1765930000000-issue-first-exception';
/** Every migration, in order. The only way the schema changes (synchronize is off). */
export const MIGRATIONS = [
  EventStore1763800000000,
  IdentityAndProjects1763800000100,
  IngestAndIssues1763800000200,
  InboundFilters1763800000300,
  IngestWritePath1763800000400,
  Webhooks1763800000500,
  Scim1763800000600,
  Integrations1763800000700,
  Alerts1763800000800,
  WebSessions1763800000900,
  WebhookDeliveryQueue1763800001000,
  IngestQueueUpkeep1763800001100,
  IngestQueueCompression1763800001200,
  IssueIgnoreCount1763800001300,
  ProjectKeySettings1763800001400,
  IssueReleasesAndStats1763800001500,
  IssueTagValues1763800001600,
  IngestDeadLetters1763800001700,
  InstallationScopes1763800001800,
  ScimMembershipUserName1763800001900,
  IssueSearchIndexes1763800002100,
  Notifications1763800002500,
  MemberInvites1763800002550,
  Releases1763800002600,
  EventSearchIndex1763800002800,
  UserReports1763800002900,
  ContextSchemas1763800003000,
  IngestQueueClaims1763800003140,
  IngestRateWindowCategories1763800003150,
  InviteMails1763800003270,
  ReleasesStorageBudget1763800003570,
  DataPrivacySettings1764100000000,
  OutcomesByCategory1764200000000,
  OrganizationRateLimits1764300000000,
  EventAttachments1764400000000,
  Monitors1764500000000,
  ReleaseHealth1764600000000,
  SingleSignOn1764700000000,
  TwoFactor1764800000000,
  RetentionIndexes1764850000000,
  OpenIdConnect1764900000000,
  SecurityKeys1765000000000,
  UnhandledAndEventTags1765300000000,
  IssueBookmarksAndSavedSearches1765400000000,
  IssueMerges1765600000000,
  IssueEventMoves1765700000000,
  AlertCountsByEnvironmentAndLevel1765710000000,
  ProjectOwnership1765720000000,
  ProjectTransfersAndBundleIds1765730000000,
  PartitionedErrorEvents1765800000000,
  PartitionedClaimsAndIssueStats1765900000000,
  PartitionedIngestStats1765910000000,
  PartitionedAlertMinutes1765920000000,
  IssueFirstException1765930000000,
];
