import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { SENTRY_APP_STREAM_TYPE, sentryAppPublicationRequested, sentryAppStream } from '../../../domain';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { RequestPublicationCommand } from './request-publication.command';

@CommandHandler(RequestPublicationCommand)
export class RequestPublicationHandler implements ICommandHandler<RequestPublicationCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ slug, userId }: RequestPublicationCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const app = await this.apps.findBySlug(tx, slug, true);
      if (!app) throw DomainError.notFound();
      if (app.status === 'internal') throw DomainError.invalid('Internal integrations cannot be published.');
      if (app.status === 'published') throw DomainError.invalid('Cannot publish already published integration.');
      if (app.status === 'publish_request_inprogress') return;
      await this.apps.update(tx, String(app.id), { status: 'publish_request_inprogress' });
      await this.recorder.record(tx, sentryAppStream(app.uuid), SENTRY_APP_STREAM_TYPE, [sentryAppPublicationRequested({ appUuid: app.uuid, userId })]);
    });
  }
}
