import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Actors } from '@faultline/identity';
import { CLOCK, type Clock, DomainError, newUuid, randomHex, slugify } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import {
  appScopes,
  checkEventsAllowed,
  SENTRY_APP_STREAM_TYPE,
  sentryAppCreated,
  sentryAppStream,
  validateEvents,
  validateSchema,
  validateWebhookHeaders,
} from '../../../domain';
import { type SentryAppRow, SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { actorFor } from '../../actors';
import { Installer } from '../../installer';
import { CreateSentryAppCommand } from './create-sentry-app.command';

@CommandHandler(CreateSentryAppCommand)
export class CreateSentryAppHandler implements ICommandHandler<CreateSentryAppCommand, SentryAppRow> {
  constructor(
    private readonly actors: Actors,
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly recorder: EventRecorder,
    private readonly installer: Installer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organization, userId, creatorScopes, fields }: CreateSentryAppCommand): Promise<SentryAppRow> {
    const scopes = appScopes(fields.scopes, creatorScopes);
    const events = validateEvents(fields.events);
    checkEventsAllowed(events, new Set(scopes));
    const schema = validateSchema(fields.schema);
    const webhookHeaders = validateWebhookHeaders(fields.webhookHeaders);
    if (events.length > 0 && !fields.webhookUrl)
      throw DomainError.invalid('webhookUrl is required when subscribing to events', {
        errors: { webhookUrl: ['webhookUrl is required when subscribing to events'] },
      });
    if (!fields.isInternal && !fields.webhookUrl)
      throw DomainError.invalid('webhookUrl is required for a public integration', {
        errors: { webhookUrl: ['webhookUrl is required for a public integration'] },
      });
    return this.database.transaction(async (tx) => {
      const base = slugify(fields.name);
      let slug = base;
      for (let n = 2; await this.apps.slugTaken(tx, slug); n++) slug = `${base}-${n}`.slice(0, 64);
      const app = await this.apps.insert(tx, {
        uuid: newUuid(),
        slug,
        name: fields.name,
        ownerOrganizationId: organization.id,
        isInternal: fields.isInternal,
        webhookUrl: fields.webhookUrl,
        redirectUrl: fields.redirectUrl,
        verifyInstall: fields.isInternal ? false : fields.verifyInstall,
        scopes,
        events,
        isAlertable: fields.isAlertable,
        schema,
        allowedOrigins: [...fields.allowedOrigins],
        webhookHeaders,
        overview: fields.overview,
        author: fields.author,
        clientId: randomHex(32),
        clientSecret: randomHex(32),
        createdBy: userId,
      });
      await this.recorder.record(tx, sentryAppStream(app.uuid), SENTRY_APP_STREAM_TYPE, [
        sentryAppCreated({ appUuid: app.uuid, slug, organizationId: organization.id, isInternal: app.is_internal, scopes, events, userId }),
      ]);
      if (app.is_internal) await this.installer.install(tx, app, organization, await actorFor(this.actors, tx, userId), this.clock.now().toISOString());
      return app;
    });
  }
}
