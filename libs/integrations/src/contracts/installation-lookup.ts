import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { SchemaElement } from '../domain';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { SentryAppsRepository } from '../infrastructure/sentry-apps.repository';

/** What another context (alert rules) needs to know about an installation to act through its app. */
export interface InstalledApp {
  readonly installationUuid: string;
  readonly organizationId: string;
  readonly status: 'pending' | 'installed';
  readonly app: {
    readonly uuid: string;
    readonly slug: string;
    readonly name: string;
    readonly isAlertable: boolean;
    /** The `alert-rule-action` element of the app's schema (its settings form), if it declares one. */
    readonly alertRuleAction: SchemaElement | null;
  };
}

/** Finds a live installation by uuid within an organization; another organization's is not found. */
@Injectable()
export class InstallationLookup {
  constructor(
    private readonly installations: InstallationsRepository,
    private readonly apps: SentryAppsRepository,
  ) {}

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
