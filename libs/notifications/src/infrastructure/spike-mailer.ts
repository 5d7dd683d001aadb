import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { FindOrganizationQuery, MemberEmails, type OrganizationSummary } from '@faultline/identity';
import { IngestEventTypes, type SpikeProtectionActivatedData } from '@faultline/ingest';
import type { RecordedEvent } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type Transaction } from '@faultline/platform';
import { linkMail } from '../domain/issue-messages';
import { MailOutbox } from './mail-outbox';

/**
 * Mails an organization's owners when spike protection begins dropping its errors, in the
 * transaction that records it. Ingest records the event once per spike (not per hour of it), and
 * the outbox queues one mail per address and event, so a spike costs each owner one mail.
 */
@Injectable()
export class SpikeMailer {
  constructor(
    private readonly mail: MailOutbox,
    private readonly members: MemberEmails,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    for (const event of events) {
      if (event.type !== IngestEventTypes.SpikeProtectionActivated) continue;
      const spike = event.data as SpikeProtectionActivatedData;
      const organization = await this.queries.execute<FindOrganizationQuery, OrganizationSummary | null>(new FindOrganizationQuery(spike.organizationId));
      if (!organization) continue;
      const owners = await this.members.owners(tx, spike.organizationId);
      const url = `${this.config.publicUrl}/settings/${encodeURIComponent(organization.slug)}/rate-limits/`;
      await this.mail.queue(
        tx,
        owners.map((owner) => ({
          organizationId: spike.organizationId,
          to: owner.email,
          userId: owner.userId,
          reason: 'spike',
          cause: event.eventId,
          issueId: null,
          message: linkMail(
            owner.email,
            `Spike protection is dropping errors of ${organization.slug}`,
            [
              `The errors of ${organization.slug} passed ${spike.threshold} in an hour, several times their usual hourly volume.`,
              `Spike protection drops its errors until ${spike.limitedUntil}, and again each hour they pass the threshold; check-ins, sessions and user feedback are still accepted.`,
              'The limit lifts by itself when the volume falls. An owner can turn spike protection off in the rate limits settings.',
            ],
            { label: 'Rate limits', url },
          ),
        })),
      );
    }
  };
}
