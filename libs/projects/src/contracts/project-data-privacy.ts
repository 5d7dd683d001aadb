import type { DataPrivacySettings } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';

/** What ingest scrubs a project's events with, read in its own transaction. */
export abstract class ProjectDataPrivacy {
  /**
   * The project's settings with its organization's requirements applied (`effectiveDataPrivacy`);
   * undefined for a project that is gone.
   */
  abstract effective(sql: Sql, projectId: string): Promise<DataPrivacySettings | undefined>;
}
