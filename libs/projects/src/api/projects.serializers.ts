import type { OrganizationAccess } from '@faultline/platform';
import { keyEndpoints } from '../domain/dsn';
import { BROWSER_SDK_VERSIONS, DEFAULT_LOADER_OPTIONS } from '../domain/project-key';
import { projectKeySettings, type ProjectKeyRow, type ProjectRow } from '../infrastructure/projects.repository';

const AVATAR = Object.freeze({ avatarType: 'letter_avatar', avatarUuid: null, avatarUrl: null });

/** A stable colour per slug, as Sentry derives one. */
function colorOf(slug: string): string {
  let hash = 0;
  for (const char of slug) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `#${(hash & 0xffffff).toString(16).padStart(6, '0')}`;
}

/**
 * What a project response derives from the organization alone, computed once per OrganizationAccess
 * object. That object is immutable and the auth directory hands out the same one while its cache
 * entry lives, so the requests it serves share these frozen values; a changed organization, role or
 * token yields a new OrganizationAccess and so new values.
 */
const accessLists = new WeakMap<OrganizationAccess, readonly string[]>();
const summaries = new WeakMap<OrganizationAccess, { readonly publicUrl: string; readonly summary: object }>();

/** The caller's project and event scopes, sorted. */
function accessOf(organization: OrganizationAccess): readonly string[] {
  let access = accessLists.get(organization);
  if (!access) {
    access = Object.freeze([...organization.scopes].filter((scope) => scope.startsWith('project:') || scope.startsWith('event:')).sort());
    accessLists.set(organization, access);
  }
  return access;
}

/** The organization as the detailed project embeds it. */
function summaryOf(organization: OrganizationAccess, publicUrl: string): object {
  const cached = summaries.get(organization);
  if (cached && cached.publicUrl === publicUrl) return cached.summary;
  const summary = Object.freeze({
    id: organization.id,
    slug: organization.slug,
    name: organization.name,
    status: Object.freeze({ id: 'active', name: 'active' }),
    dateCreated: organization.dateCreated.toISOString(),
    isEarlyAdopter: false,
    require2FA: organization.require2FA,
    avatar: AVATAR,
    links: Object.freeze({ organizationUrl: `${publicUrl}/organizations/${organization.slug}/`, regionUrl: publicUrl }),
    hasAuthProvider: false,
    allowMemberInvite: true,
    allowMemberProjectCreation: true,
    allowSuperuserAccess: true,
    features: Object.freeze([...organization.features].sort()),
  });
  summaries.set(organization, { publicUrl, summary });
  return summary;
}

/** The project as Sentry's organization project list shows it. */
export function serializeProject(project: ProjectRow, organization: OrganizationAccess) {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: project.date_created.toISOString(),
    isBookmarked: project.is_bookmarked,
    isMember: project.is_member,
    features: project.features.slice().sort(),
    firstEvent: project.first_event ? project.first_event.toISOString() : null,
    firstTransactionEvent: false,
    access: accessOf(organization),
    hasAccess: true,
    hasFeedbacks: false,
    hasFlags: false,
    hasMinifiedStackTrace: false,
    hasMonitors: false,
    hasNewFeedbacks: false,
    hasProfiles: false,
    hasReplays: false,
    hasSessions: false,
    hasInsightsHttp: false,
    hasInsightsDb: false,
    hasInsightsAssets: false,
    hasInsightsAppStart: false,
    hasInsightsScreenLoad: false,
    hasInsightsVitals: false,
    hasInsightsCaches: false,
    hasInsightsQueues: false,
    hasInsightsAgentMonitoring: false,
    hasInsightsMCP: false,
    hasLogs: false,
    hasTraceMetrics: false,
    hasUserReports: false,
    isInternal: false,
    isPublic: false,
    avatar: AVATAR,
    color: colorOf(project.slug),
    status: project.status,
    team: project.teams[0] ?? null,
    teams: project.teams,
    platforms: project.platform ? [project.platform] : [],
    environments: [],
    latestRelease: null,
    latestDeploys: null,
  };
}

/**
 * Sentry's detailed project: the spec's fields plus the rest with neutral values where Faultline has no use for them.
 * One object literal, not a spread of serializeProject (spreading cost about 110 µs a request; see
 * bench/README.md): its first fields are serializeProject's, in the same order, and must stay so.
 */
export function serializeProjectDetail(project: ProjectRow, organization: OrganizationAccess, publicUrl: string) {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: project.date_created.toISOString(),
    isBookmarked: project.is_bookmarked,
    isMember: project.is_member,
    features: project.features.slice().sort(),
    firstEvent: project.first_event ? project.first_event.toISOString() : null,
    firstTransactionEvent: false,
    access: accessOf(organization),
    hasAccess: true,
    hasFeedbacks: false,
    hasFlags: false,
    hasMinifiedStackTrace: false,
    hasMonitors: false,
    hasNewFeedbacks: false,
    hasProfiles: false,
    hasReplays: false,
    hasSessions: false,
    hasInsightsHttp: false,
    hasInsightsDb: false,
    hasInsightsAssets: false,
    hasInsightsAppStart: false,
    hasInsightsScreenLoad: false,
    hasInsightsVitals: false,
    hasInsightsCaches: false,
    hasInsightsQueues: false,
    hasInsightsAgentMonitoring: false,
    hasInsightsMCP: false,
    hasLogs: false,
    hasTraceMetrics: false,
    hasUserReports: false,
    isInternal: false,
    isPublic: false,
    avatar: AVATAR,
    color: colorOf(project.slug),
    status: project.status,
    team: project.teams[0] ?? null,
    teams: project.teams,
    platforms: project.platform ? [project.platform] : [],
    environments: [],
    latestRelease: null,
    latestDeploys: null,
    options: {},
    digestsMinDelay: 300,
    digestsMaxDelay: 1800,
    subjectPrefix: '',
    allowedDomains: ['*'],
    resolveAge: 0,
    dataScrubber: project.data_scrubber,
    dataScrubberDefaults: project.data_scrubber_defaults,
    safeFields: project.safe_fields,
    storeCrashReports: project.store_crash_reports,
    sensitiveFields: project.sensitive_fields,
    subjectTemplate: '$shortID - $title',
    securityToken: '',
    securityTokenHeader: null,
    verifySSL: false,
    scrubIPAddresses: project.scrub_ip_addresses,
    scrapeJavaScript: true,
    enableAutoReleaseCreation: false,
    highlightTags: [],
    highlightContext: {},
    highlightPreset: { tags: [], context: {} },
    groupingConfig: 'faultline:v1',
    derivedGroupingEnhancements: '',
    groupingEnhancements: '',
    secondaryGroupingExpiry: 0,
    secondaryGroupingConfig: null,
    fingerprintingRules: '',
    organization: summaryOf(organization, publicUrl),
    processingIssues: 0,
    defaultEnvironment: null,
    relayPiiConfig: null,
    builtinSymbolSources: [],
    dynamicSamplingBiases: null,
    symbolSources: '[]',
    isDynamicallySampled: false,
    tempestFetchScreenshots: false,
    autofixAutomationTuning: 'off',
    seerScannerAutomation: false,
    seerNightshiftTweaks: null,
    scmSourceContextEnabled: false,
    debugFilesRole: null,
  };
}

export function serializeProjectKey(key: ProjectKeyRow, publicUrl: string) {
  const settings = projectKeySettings(key);
  return {
    id: key.public_key,
    name: settings.name,
    label: settings.name,
    public: key.public_key,
    secret: key.secret_key,
    projectId: Number(key.project_id),
    isActive: settings.isActive,
    rateLimit: settings.rateLimit,
    dsn: keyEndpoints(publicUrl, key.public_key, key.secret_key, key.project_id),
    browserSdkVersion: settings.browserSdkVersion,
    browserSdk: { choices: BROWSER_SDK_VERSIONS.map((version) => [version, version]) },
    dateCreated: key.date_created.toISOString(),
    dynamicSdkLoaderOptions: { ...DEFAULT_LOADER_OPTIONS, ...settings.dynamicSdkLoaderOptions },
    useCase: 'user',
  };
}
