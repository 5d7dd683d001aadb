import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, randomHex, sha256Hex } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { ProjectTransferNotices } from '../../../contracts/project-transfer-notices';
import { acceptTransferUrl, requireTransferLinkBudget, TRANSFER_LINK_WINDOW_MS, transferExpiry } from '../../../domain/project-transfer';
import { PROJECT_STREAM_TYPE, projectStream, projectTransferRequested } from '../../../domain/project.events';
import { ProjectTransfersRepository } from '../../../infrastructure/project-transfers.repository';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { RequestProjectTransferCommand } from './request-project-transfer.command';

/** The accept link; the mail carries it, and so does the answer, for a server without SMTP. */
export interface RequestedTransfer {
  readonly acceptUrl: string;
  readonly expiresAt: string;
}

@CommandHandler(RequestProjectTransferCommand)
export class RequestProjectTransferHandler implements ICommandHandler<RequestProjectTransferCommand, RequestedTransfer> {
  constructor(
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
    private readonly transfers: ProjectTransfersRepository,
    private readonly notices: ProjectTransferNotices,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ organizationId, projectId, email, requestedBy }: RequestProjectTransferCommand): Promise<RequestedTransfer> {
    const now = this.clock.now();
    const expiresAt = transferExpiry(now);
    // The link's secret: 256 random bits, kept only as a hash (like a password reset link).
    const token = randomHex(32);
    return this.database.transaction(async (tx) => {
      const project = await this.projects.lock(tx, organizationId, projectId);
      if (!project) throw DomainError.notFound();
      requireTransferLinkBudget(await this.transfers.sentSince(tx, projectId, new Date(now.getTime() - TRANSFER_LINK_WINDOW_MS)));
      const recipient = await this.transfers.ownerByEmail(tx, email);
      if (!recipient) throw DomainError.notFound('Could not find an organization owner with that email');
      const transferId = await this.transfers.insert(tx, {
        projectId,
        fromOrganizationId: organizationId,
        recipientUserId: recipient.userId,
        recipientEmail: recipient.email,
        requestedBy: requestedBy ?? null,
        tokenHash: sha256Hex(token),
        now,
        expiresAt,
      });
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [
        projectTransferRequested({ projectId, organizationId, transferId, recipientUserId: recipient.userId, expiresAt: expiresAt.toISOString() }),
      ]);
      const acceptUrl = acceptTransferUrl(this.config.publicUrl, token);
      await this.notices.notify(tx, {
        transferId,
        organizationId,
        organizationName: await this.transfers.organizationName(tx, organizationId),
        projectSlug: project.slug,
        projectName: project.name,
        recipientEmail: recipient.email,
        requestedByName: await this.transfers.userName(tx, requestedBy),
        acceptUrl,
        expiresAt: expiresAt.toISOString(),
      });
      return { acceptUrl, expiresAt: expiresAt.toISOString() };
    });
  }
}
