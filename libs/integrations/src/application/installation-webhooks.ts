import type { InstallationActor, InstallationState } from '../domain';
import type { SentryAppRow } from '../infrastructure/sentry-apps.repository';

/** The installation as its webhooks and API answers describe it (Sentry's installation serializer). */
export function installationPayload(
  state: Pick<InstallationState, 'uuid' | 'status'>,
  app: Pick<SentryAppRow, 'uuid' | 'slug' | 'name'>,
  organizationSlug: string,
  code?: string,
) {
  return {
    app: { uuid: app.uuid, slug: app.slug, name: app.name },
    organization: { slug: organizationSlug },
    uuid: state.uuid,
    status: state.status,
    ...(code !== undefined ? { code } : {}),
  };
}

export type { InstallationActor };
