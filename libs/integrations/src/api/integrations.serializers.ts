import type { ExternalIssueRow } from '../infrastructure/external-issues.repository';
import type { InstallationView } from '../infrastructure/installations.repository';
import { maskWebhookHeaders, webhookEventsOf } from '../domain';
import type { SentryAppRow } from '../infrastructure/sentry-apps.repository';

/**
 * Sentry's SentryApp shape. Its secrets, the client secret and the values of its custom webhook
 * headers (a receiver's credentials), only for the owning organization's managers.
 */
export function serializeSentryApp(app: SentryAppRow, options: { showSecrets: boolean }) {
  return {
    uuid: app.uuid,
    slug: app.slug,
    name: app.name,
    author: app.author,
    overview: app.overview,
    status: app.status,
    isInternal: app.is_internal,
    isAlertable: app.is_alertable,
    verifyInstall: app.verify_install,
    webhookUrl: app.webhook_url,
    redirectUrl: app.redirect_url,
    scopes: app.scopes,
    events: app.events,
    webhookEvents: webhookEventsOf(app.events),
    webhookHeaders: options.showSecrets ? app.webhook_headers : maskWebhookHeaders(app.webhook_headers),
    schema: app.schema,
    allowedOrigins: app.allowed_origins,
    avatars: [],
    featureData: [],
    metadata: '',
    isDisabled: false,
    popularity: null,
    owner: { id: Number(app.owner_organization_id), slug: app.owner_slug },
    clientId: app.client_id,
    clientSecret: options.showSecrets ? app.client_secret : null,
    dateCreated: app.date_created.toISOString(),
    dateUpdated: app.date_updated.toISOString(),
    ...(app.date_published ? { datePublished: app.date_published.toISOString() } : {}),
  };
}

export function serializeInstallation(row: InstallationView, code?: string) {
  return {
    app: { uuid: row.app_uuid, slug: row.app_slug, name: row.app_name, sentryAppId: Number(row.app_id) },
    organization: { slug: row.organization_slug },
    uuid: row.uuid,
    status: row.status,
    ...(code !== undefined ? { code } : {}),
  };
}

/** The spec's link (`id` string, `issueId` string in answers) with Sentry's serviceType and displayName. */
export function serializeExternalIssue(row: ExternalIssueRow) {
  return {
    id: String(row.id),
    issueId: String(row.issue_id),
    serviceType: row.app_slug,
    displayName: `${row.project}#${row.identifier}`,
    webUrl: row.web_url,
    project: row.project,
    identifier: row.identifier,
  };
}
