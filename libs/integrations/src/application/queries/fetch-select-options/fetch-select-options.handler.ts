import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { declaredUris, selectOptions } from '../../../domain';
import { ComponentRequester } from '../../../infrastructure/component-requester';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { FetchSelectOptionsQuery, type SelectOptions } from './fetch-select-options.query';

@QueryHandler(FetchSelectOptionsQuery)
export class FetchSelectOptionsHandler implements IQueryHandler<FetchSelectOptionsQuery, SelectOptions> {
  constructor(
    private readonly database: Database,
    private readonly installations: InstallationsRepository,
    private readonly apps: SentryAppsRepository,
    private readonly requester: ComponentRequester,
  ) {}

  async execute({ installationUuid, uri, project, query, dependentData }: FetchSelectOptionsQuery): Promise<SelectOptions> {
    const installation = await this.installations.find(this.database, installationUuid);
    const app = installation ? await this.apps.findById(this.database, String(installation.app_id)) : null;
    if (!installation || !app) throw DomainError.notFound();
    if (!app.webhook_url || !declaredUris(app.schema).has(uri)) throw DomainError.invalid(`${uri} is not a URI of this integration's components.`);
    const answer = await this.requester.get({ webhookUrl: app.webhook_url, clientSecret: app.client_secret }, uri, {
      installationId: installation.uuid,
      projectSlug: project?.slug,
      query,
      dependentData,
    });
    return selectOptions(answer);
  }
}
