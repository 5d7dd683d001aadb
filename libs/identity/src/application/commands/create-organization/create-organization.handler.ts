import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, isValidSlug, slugify } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import {
  MEMBER_STREAM_TYPE,
  memberAdded,
  memberStream,
  organizationCreated,
  ORGANIZATION_STREAM_TYPE,
  organizationStream,
} from '../../../domain/identity.events';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { IdentityRepository, type OrganizationRow } from '../../../infrastructure/identity.repository';
import { CreateOrganizationCommand } from './create-organization.command';

/** Creates an organization with its creator as owner. */
@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand, OrganizationRow> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute(command: CreateOrganizationCommand): Promise<OrganizationRow> {
    const slug = command.slug ?? slugify(command.name);
    if (!isValidSlug(slug)) throw DomainError.invalid(`slug: "${slug}" must be lowercase letters, numbers, - or _, and not only digits`);
    return this.database.transaction(async (tx) => {
      if (await this.repository.slugTaken(tx, 'organizations', slug)) {
        throw DomainError.conflict('An organization with this slug already exists.');
      }
      const organization = await this.repository.insertOrganization(tx, { slug, name: command.name, plan: command.plan, features: [] });
      const memberId = await this.repository.insertMember(tx, { organizationId: organization.id, userId: command.ownerUserId, role: 'owner' });
      await this.events.record(tx, organizationStream(organization.id), ORGANIZATION_STREAM_TYPE, [
        organizationCreated({ organizationId: organization.id, slug, name: organization.name, plan: organization.plan }),
      ]);
      await this.events.record(tx, memberStream(memberId), MEMBER_STREAM_TYPE, [
        memberAdded({ organizationId: organization.id, memberId, userId: command.ownerUserId, role: 'owner' }),
      ]);
      tx.afterCommit(() => this.cache.clear());
      return organization;
    });
  }
}
