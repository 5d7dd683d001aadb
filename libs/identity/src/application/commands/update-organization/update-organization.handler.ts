import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, isValidSlug } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { ORGANIZATION_STREAM_TYPE, organizationStream, organizationUpdated } from '../../../domain/identity.events';
import { isMemberRole, isPlan, MEMBER_ROLES, PLANS } from '../../../domain/roles';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { IdentityRepository, type OrganizationRow } from '../../../infrastructure/identity.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { UpdateOrganizationCommand } from './update-organization.command';

@CommandHandler(UpdateOrganizationCommand)
export class UpdateOrganizationHandler implements ICommandHandler<UpdateOrganizationCommand, OrganizationRow> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
    private readonly twoFactor: TwoFactorRepository,
  ) {}

  async execute({ organizationId, changes, actorIsSuperuser, actorUserId }: UpdateOrganizationCommand): Promise<OrganizationRow> {
    if ((changes.plan !== undefined || changes.features !== undefined) && !actorIsSuperuser) {
      throw DomainError.forbidden('Only an instance administrator can change the plan or features of an organization.');
    }
    if (changes.plan !== undefined && !isPlan(changes.plan)) {
      throw DomainError.invalid(`plan: must be one of ${PLANS.join(', ')}`, { errors: { plan: [`Must be one of ${PLANS.join(', ')}`] } });
    }
    if (changes.attachmentsRole !== undefined && !isMemberRole(changes.attachmentsRole)) {
      throw DomainError.invalid(`attachmentsRole: must be one of ${MEMBER_ROLES.join(', ')}`, { errors: { attachmentsRole: ['Invalid role'] } });
    }
    if (changes.storeCrashReports === null) {
      throw DomainError.invalid('storeCrashReports: an organization keeps a number of crash reports (0 for none, -1 for all), not null', {
        errors: { storeCrashReports: ['This field may not be null.'] },
      });
    }
    if (changes.slug !== undefined && !isValidSlug(changes.slug)) {
      throw DomainError.invalid(`slug: "${changes.slug}" must be lowercase letters, numbers, - or _, and not only digits`);
    }
    return this.database.transaction(async (tx) => {
      const current = await this.repository.lockOrganization(tx, organizationId);
      if (!current) throw DomainError.notFound();
      // Sentry's rule: whoever requires a second factor of everyone must have one, or they would lock themselves out.
      if (changes.require2FA && !current.require_2fa && !(actorUserId && (await this.twoFactor.hasSecondFactor(tx, actorUserId)))) {
        throw DomainError.invalid('Cannot require two-factor authentication without personal two-factor enabled.', {
          require2FA: ['Cannot require two-factor authentication without personal two-factor enabled.'],
        });
      }
      if (changes.slug && changes.slug !== current.slug && (await this.repository.slugTaken(tx, 'organizations', changes.slug))) {
        throw DomainError.conflict('An organization with this slug already exists.');
      }
      const { attachmentsRole, ...named } = changes;
      const updated = await this.repository.updateOrganization(tx, organizationId, {
        ...named,
        attachments_role: attachmentsRole as OrganizationRow['attachments_role'] | undefined,
        plan: changes.plan as OrganizationRow['plan'] | undefined,
        storeCrashReports: changes.storeCrashReports ?? undefined,
        features: changes.features && [...new Set(changes.features)].sort(),
      });
      const changed = Object.fromEntries(
        Object.entries(changes).filter(([key]) => JSON.stringify(columnOf(current, key)) !== JSON.stringify(columnOf(updated, key))),
      );
      if (Object.keys(changed).length) {
        await this.events.record(tx, organizationStream(organizationId), ORGANIZATION_STREAM_TYPE, [organizationUpdated({ organizationId, changes: changed })]);
        tx.afterCommit(() => this.cache.clear());
      }
      return updated;
    });
  }
}

const COLUMNS: Record<string, keyof OrganizationRow> = {
  attachmentsRole: 'attachments_role',
  require2FA: 'require_2fa',
  dataScrubber: 'data_scrubber',
  dataScrubberDefaults: 'data_scrubber_defaults',
  sensitiveFields: 'sensitive_fields',
  safeFields: 'safe_fields',
  scrubIPAddresses: 'scrub_ip_addresses',
  storeCrashReports: 'store_crash_reports',
};

/** A change's field as the row holds it. */
function columnOf(row: OrganizationRow, field: string): unknown {
  return row[COLUMNS[field] ?? (field as keyof OrganizationRow)];
}
