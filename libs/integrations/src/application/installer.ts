import { Injectable } from '@nestjs/common';
import { newUuid, randomHex, sha256Hex } from '@faultline/kernel';
import { IntegrationTokens } from '@faultline/identity';
import type { Transaction } from '@faultline/platform';
import { Installation, type InstallationActor } from '../domain';
import { AppWebhookOutbox } from '../contracts/app-webhook-outbox';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import type { SentryAppRow } from '../infrastructure/sentry-apps.repository';
import { installationPayload } from './installation-webhooks';

export interface NewInstallation {
  readonly installation: Installation;
  /** The grant code, shown once (in the answer and in `installation.created`). */
  readonly code: string;
}

/**
 * Installing and uninstalling, shared by the commands that do either (an internal app is installed
 * when it is created; deleting an app uninstalls it everywhere). Each runs in the caller's
 * transaction: the stream, the read model, the token revocations and the webhook together.
 */
@Injectable()
export class Installer {
  constructor(
    private readonly installations: InstallationsRepository,
    private readonly outbox: AppWebhookOutbox,
    private readonly tokens: IntegrationTokens,
  ) {}

  async install(
    tx: Transaction,
    app: SentryAppRow,
    organization: { id: string; slug: string },
    actor: InstallationActor,
    at: string,
  ): Promise<NewInstallation> {
    const code = randomHex(32);
    const installation = Installation.install({
      uuid: newUuid(),
      appId: String(app.id),
      organizationId: organization.id,
      // Internal apps are trusted by their own organization: nothing to verify.
      verifyInstall: app.verify_install && !app.is_internal,
      grantCodeHash: sha256Hex(code),
      scopes: app.scopes,
      actor,
      at,
    });
    const created = installation.peekPendingEvents()[0];
    await this.installations.create(tx, installation, { actorType: actor.type, actorId: actor.id });
    await this.outbox.enqueue(tx, {
      organizationId: organization.id,
      installationUuid: installation.snapshot.uuid,
      resource: 'installation',
      action: 'created',
      cause: `${created.type}:${installation.snapshot.uuid}`,
      data: { installation: installationPayload(installation.snapshot, app, organization.slug, code) },
      actor,
    });
    return { installation, code };
  }

  /** Revokes every token; `notify` false when the app itself is going away (its receiver with it). */
  async uninstall(
    tx: Transaction,
    installation: Installation,
    app: SentryAppRow,
    organizationSlug: string,
    actor: InstallationActor,
    at: string,
    notify = true,
  ): Promise<void> {
    const payload = installationPayload(installation.snapshot, app, organizationSlug);
    if (notify) {
      // Queued before the installation is marked deleted: the outbox sends only to live installations.
      await this.outbox.enqueue(tx, {
        organizationId: installation.snapshot.organizationId,
        installationUuid: installation.snapshot.uuid,
        resource: 'installation',
        action: 'deleted',
        cause: `integrations.InstallationDeleted:${installation.snapshot.uuid}`,
        data: { installation: payload },
        actor,
      });
    }
    const decided = await this.installations.decide(tx, installation.snapshot.uuid, (current) => current.uninstall(actor, at), {
      metadata: { actorType: actor.type, actorId: actor.id },
      loaded: installation,
    });
    if (decided) await this.tokens.revoke(tx, decided.result);
  }
}
