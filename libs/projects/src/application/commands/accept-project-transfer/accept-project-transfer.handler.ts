import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError, sha256Hex } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { refuseTransferTarget, requireUsableTransfer } from '../../../domain/project-transfer';
import { PROJECT_STREAM_TYPE, projectStream, projectTransferred } from '../../../domain/project.events';
import { ProjectTransfersRepository } from '../../../infrastructure/project-transfers.repository';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { AcceptProjectTransferCommand } from './accept-project-transfer.command';

/** Where the project went. */
export interface AcceptedTransfer {
  readonly organizationSlug: string;
  readonly projectSlug: string;
}

@CommandHandler(AcceptProjectTransferCommand)
export class AcceptProjectTransferHandler implements ICommandHandler<AcceptProjectTransferCommand, AcceptedTransfer> {
  constructor(
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
    private readonly transfers: ProjectTransfersRepository,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, userId, organizationSlug }: AcceptProjectTransferCommand): Promise<AcceptedTransfer> {
    const now = this.clock.now();
    return this.database.transaction(async (tx) => {
      // Locked first, so two acceptances of one link queue here and the second finds it used.
      const transfer = requireUsableTransfer(await this.transfers.findByHash(tx, sha256Hex(token), true), userId, now);
      const owned = (await this.transfers.ownedOrganizations(tx, userId)).find((organization) => organization.slug === organizationSlug);
      const project = await this.projects.lock(tx, transfer.fromOrganizationId, transfer.projectId);
      if (!project) throw DomainError.invalid('The project of this transfer no longer exists.');
      const target = owned
        ? { organizationId: owned.id, slug: owned.slug, isOwner: true, slugTaken: await this.projects.slugTaken(tx, owned.id, project.slug) }
        : null;
      refuseTransferTarget(transfer, target);
      const toOrganizationId = target.organizationId;
      const publicKeys = await this.transfers.publicKeys(tx, transfer.projectId);
      await this.transfers.move(tx, transfer.projectId, toOrganizationId);
      await this.transfers.markUsed(tx, transfer.id, now);
      await this.events.record(tx, projectStream(transfer.projectId), PROJECT_STREAM_TYPE, [
        projectTransferred({
          projectId: transfer.projectId,
          slug: project.slug,
          fromOrganizationId: transfer.fromOrganizationId,
          toOrganizationId,
          transferId: transfer.id,
          publicKeys,
        }),
      ]);
      return { organizationSlug: target.slug, projectSlug: project.slug };
    });
  }
}
