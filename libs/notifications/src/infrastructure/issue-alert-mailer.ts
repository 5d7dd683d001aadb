import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { FindTeamQuery, MemberEmails, type MemberRecipient, type TeamSummary } from '@faultline/identity';
import { newHexId } from '@faultline/kernel';
import type { Sql, Transaction } from '@faultline/platform';
import { ProjectTeams } from '@faultline/projects';
import { WebhookTargets } from '@faultline/webhooks';
import { IssueAlertNotifier, type AlertMailTarget, type IssueAlertNotice } from '../contracts/issue-alert-notifier';
import { chatMessage } from '../domain/issue-messages';
import { CHAT_TARGET } from './chat-target-kind';
import { MailOutbox } from './mail-outbox';
import { MailTargetKind } from './mail-target-kind';

/**
 * Issue alert actions by mail (Sentry's NotifyEmailAction: a member, a team, or the issue's
 * owners with a fall-through) and to chat webhooks, queued in the transaction that fired them.
 */
@Injectable()
export class IssueAlertMailer extends IssueAlertNotifier {
  constructor(
    private readonly mail: MailOutbox,
    private readonly members: MemberEmails,
    private readonly projectTeams: ProjectTeams,
    private readonly targets: WebhookTargets,
    private readonly queries: QueryBus,
    private readonly mailKind: MailTargetKind,
  ) {
    super();
  }

  sendsMail(): boolean {
    return this.mailKind.config.smtpUrl !== undefined;
  }

  async notify(tx: Transaction, notices: readonly IssueAlertNotice[]): Promise<string[][]> {
    const causes = notices.map((): string[] => []);
    if (notices.length === 0) return causes;
    const digests = await this.mail.digests(
      tx,
      notices.map((notice) => notice.issueId),
    );
    for (const [index, notice] of notices.entries()) {
      const digest = digests.get(notice.issueId);
      if (!digest) continue;
      const headline = `Alert rule "${notice.ruleName}" fired for ${digest.shortId} in ${digest.projectName || digest.projectSlug}.`;
      if (notice.channel.kind === 'email') {
        const recipients = await this.recipients(tx, notice, notice.channel.target);
        const queued = await this.mail.issueMails(tx, {
          organizationId: notice.organizationId,
          issueId: notice.issueId,
          digest,
          recipients,
          type: 'alerts',
          reason: 'alert',
          cause: notice.cause,
          headline,
        });
        if (queued.length > 0) causes[index].push(notice.cause);
      } else {
        const body = JSON.stringify(chatMessage(notice.channel.service, headline, digest));
        const queued = await this.targets.enqueue(tx, [
          {
            guid: newHexId(),
            targetKind: CHAT_TARGET,
            targetId: notice.channel.webhookUrl,
            cause: notice.cause,
            eventType: `chat.${notice.channel.service}`,
            body,
          },
        ]);
        if (queued > 0) causes[index].push(notice.cause);
      }
    }
    return causes;
  }

  async targetProblem(sql: Sql, organizationId: string, target: AlertMailTarget): Promise<string | null> {
    if (target.targetType === 'Member') {
      const [member] = await this.members.ofUsers(sql, organizationId, [target.targetIdentifier]);
      return member ? null : `no active member with user id ${target.targetIdentifier} in this organization`;
    }
    if (target.targetType === 'Team') {
      const team = await this.queries.execute<FindTeamQuery, TeamSummary | null>(new FindTeamQuery(organizationId, target.targetIdentifier));
      return team ? null : `no team with id ${target.targetIdentifier} in this organization`;
    }
    return null;
  }

  /**
   * `IssueOwners` does not read the project's ownership rules yet (a notice carries no event to
   * match them against), so it mails as its fall-through says: the members of the project's teams (Sentry's ActiveMembers narrows that to
   * recently active ones; Faultline keeps no activity, so both mean the project's members), or nobody.
   */
  private async recipients(tx: Transaction, notice: IssueAlertNotice, target: AlertMailTarget): Promise<MemberRecipient[]> {
    switch (target.targetType) {
      case 'Member':
        return this.members.ofUsers(tx, notice.organizationId, [target.targetIdentifier]);
      case 'Team':
        return this.members.ofTeams(tx, notice.organizationId, [target.targetIdentifier]);
      case 'IssueOwners':
        if (target.fallthroughType === 'NoOne') return [];
        return this.members.ofTeams(tx, notice.organizationId, await this.projectTeams.teamIds(tx, notice.projectId));
    }
  }
}
