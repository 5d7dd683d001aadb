import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, randomHex } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { IntegrationTokens } from '@faultline/identity';
import { Database, type Transaction } from '@faultline/platform';
import { WebhookTargets } from '@faultline/webhooks';
import {
  appScopes,
  APP_WEBHOOK_TARGET,
  checkEventsAllowed,
  SENTRY_APP_STREAM_TYPE,
  sentryAppPublished,
  sentryAppStream,
  sentryAppUpdated,
  validateEvents,
  validateSchema,
  webhookHeadersUpdate,
} from '../../../domain';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { type SentryAppChanges, type SentryAppRow, SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { UpdateSentryAppCommand } from './update-sentry-app.command';

@CommandHandler(UpdateSentryAppCommand)
export class UpdateSentryAppHandler implements ICommandHandler<UpdateSentryAppCommand, SentryAppRow> {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly recorder: EventRecorder,
    private readonly targets: WebhookTargets,
    private readonly installations: InstallationsRepository,
    private readonly tokens: IntegrationTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ slug, userId, editorScopes, isInstanceAdmin, changes }: UpdateSentryAppCommand): Promise<SentryAppRow> {
    return this.database.transaction(
      async (tx) => {
        const app = await this.apps.findBySlug(tx, slug, true);
        if (!app) throw DomainError.notFound();
        if (changes.isInternal !== undefined && changes.isInternal !== app.is_internal)
          throw DomainError.invalid('isInternal cannot be changed once the integration exists.');
        const update: SentryAppChanges = {
          name: changes.name,
          webhookUrl: changes.webhookUrl,
          redirectUrl: changes.redirectUrl,
          verifyInstall: app.is_internal ? undefined : changes.verifyInstall,
          scopes: changes.scopes ? appScopes(changes.scopes, editorScopes, app) : undefined,
          events: changes.events ? validateEvents(changes.events) : undefined,
          isAlertable: changes.isAlertable,
          schema: changes.schema !== undefined ? validateSchema(changes.schema) : undefined,
          allowedOrigins: changes.allowedOrigins ? [...changes.allowedOrigins] : undefined,
          webhookHeaders: changes.webhookHeaders ? webhookHeadersUpdate(changes.webhookHeaders, app.webhook_headers) : undefined,
          overview: changes.overview,
          author: changes.author,
          clientSecret: changes.rotateSecret ? randomHex(32) : undefined,
        };
        const events = update.events ?? app.events;
        checkEventsAllowed(events as never, new Set(update.scopes ?? app.scopes));
        const webhookUrl = update.webhookUrl === undefined ? app.webhook_url : update.webhookUrl;
        if (events.length > 0 && !webhookUrl)
          throw DomainError.invalid('webhookUrl is required when subscribing to events', {
            errors: { webhookUrl: ['webhookUrl is required when subscribing to events'] },
          });
        let published = false;
        if (changes.status !== undefined && changes.status !== app.status) {
          if (changes.status !== 'published' || app.is_internal) throw DomainError.invalid(`Invalid status: ${changes.status}`);
          if (!isInstanceAdmin) throw DomainError.forbidden('Only an instance administrator can publish an integration.');
          update.status = 'published';
          published = true;
        }
        await this.apps.update(tx, String(app.id), update);
        if (update.scopes && update.scopes.join(' ') !== [...app.scopes].sort().join(' ')) await this.followScopes(tx, app, update.scopes, userId);
        const changed = Object.entries(update)
          .filter(([, value]) => value !== undefined)
          .map(([key]) => key);
        await this.recorder.record(tx, sentryAppStream(app.uuid), SENTRY_APP_STREAM_TYPE, [
          ...(changed.length ? [sentryAppUpdated({ appUuid: app.uuid, changed, userId })] : []),
          ...(published ? [sentryAppPublished({ appUuid: app.uuid, userId })] : []),
        ]);
        const updated = (await this.apps.findById(tx, String(app.id))) as SentryAppRow;
        if (!updated.webhook_url) await this.targets.remove(tx, APP_WEBHOOK_TARGET, updated.uuid, 'the app has no webhook URL any more');
        return updated;
      },
      { retries: 1 },
    );
  }

  /**
   * Each installation's grant follows the app's new scopes as far as its organization agreed: down
   * at once, with its live tokens; up only on the app's own organization, whose editor holds them.
   */
  private async followScopes(tx: Transaction, app: SentryAppRow, scopes: readonly string[], userId: string | null): Promise<void> {
    const at = this.clock.now().toISOString();
    const metadata = userId ? { actorType: 'user' as const, actorId: userId } : { actorType: 'application' as const, actorId: app.uuid };
    for (const view of await this.installations.listLiveForApp(tx, String(app.id))) {
      const decided = await this.installations.decide(
        tx,
        view.uuid,
        (installation) => installation.followAppScopes(scopes, installation.snapshot.organizationId === String(app.owner_organization_id), at),
        { metadata },
      );
      if (decided) await this.tokens.restrict(tx, decided.aggregate.snapshot.tokenIds, decided.result);
    }
  }
}
