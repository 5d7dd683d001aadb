import type { Sql } from '@faultline/platform';
import type { SchemaElement } from '../domain';

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
export abstract class InstallationLookup {
  abstract find(sql: Sql, organizationId: string, installationUuid: string): Promise<InstalledApp | null>;
}
