import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { InstallationLookup, type InstalledApp } from '../contracts/installation-lookup';
import { InstallationsRepository } from './installations.repository';
import { SentryAppsRepository } from './sentry-apps.repository';

/** Reads the installation, then its app. */
@Injectable()
export class InstallationLookupService extends InstallationLookup {
  constructor(
    private readonly installations: InstallationsRepository,
    private readonly apps: SentryAppsRepository,
  ) {
    super();
  }

  async find(sql: Sql, organizationId: string, installationUuid: string): Promise<InstalledApp | null> {
    const installation = await this.installations.find(sql, installationUuid);
    if (!installation || installation.status === 'deleted' || String(installation.organization_id) !== String(organizationId)) return null;
    const app = await this.apps.findById(sql, String(installation.app_id));
    if (!app) return null;
    return {
      installationUuid: installation.uuid,
      organizationId: String(installation.organization_id),
      status: installation.status,
      app: {
        uuid: app.uuid,
        slug: app.slug,
        name: app.name,
        isAlertable: app.is_alertable,
        alertRuleAction: app.schema.elements?.find((element) => element.type === 'alert-rule-action') ?? null,
      },
    };
  }
}
