import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Put, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  Public,
  RequireScopes,
} from '@faultline/platform';
import { WebhookTargets } from '@faultline/webhooks';
import type { FastifyReply } from 'fastify';
import { NOTIFICATION_TYPES, type NotificationType, readUnsubscribeToken } from '../domain/unsubscribe-token';
import { MAIL_TARGET } from '../infrastructure/mail-target-kind';
import { NotificationsRepository } from '../infrastructure/notifications.repository';

/** The values Sentry's notification options take for the types Faultline sends. */
const OPTION_VALUES: Readonly<Record<NotificationType, readonly string[]>> = { alerts: ['always', 'never'], workflow: ['always', 'subscribe_only', 'never'] };

const page = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1>${title}</h1>${body}</body></html>`;

/** The organization's mail log and each user's notification options. */
@ApiTags('Notifications')
@ApiBearerAuth()
@Controller('api/0')
export class NotificationsController {
  constructor(
    private readonly database: Database,
    private readonly repository: NotificationsRepository,
    private readonly targets: WebhookTargets,
  ) {}

  /** The mail the organization's notifications queued, newest first, with where each delivery stands. */
  @Get('organizations/:organization_id_or_slug/mail-deliveries')
  @RequireScopes('org:write')
  async mailDeliveries(@CurrentOrganization() organization: OrganizationAccess, @Paginate() pagination: Pagination) {
    const rows = pagination.respond(await this.repository.mails(this.database, organization.id, pagination.offset, pagination.fetchLimit));
    const states = new Map(
      (
        await this.targets.states(
          MAIL_TARGET,
          rows.map((row) => row.delivery_guid),
        )
      ).map((state) => [state.guid, state]),
    );
    return rows.map((row) => {
      const state = states.get(row.delivery_guid);
      return {
        id: row.delivery_guid,
        recipient: row.recipient,
        userId: row.user_id,
        reason: row.reason,
        subject: row.subject,
        issueId: row.issue_id,
        dateCreated: row.created_at.toISOString(),
        status: state?.status ?? 'pruned',
        attempts: state?.attempts ?? null,
        lastError: state?.last_error ?? null,
        dateFinished: state?.finished_at?.toISOString() ?? null,
      };
    });
  }

  /** Sentry's user notification options (`scopeType` user only): the types Faultline mails and their values. */
  @Get('users/me/notification-options')
  @RequireScopes()
  async options(@CurrentPrincipal() principal: Principal) {
    const userId = this.userOf(principal);
    const settings = await this.repository.settings(this.database, userId);
    return NOTIFICATION_TYPES.map((type) => this.option(userId, type, settings.get(type) ?? 'always'));
  }

  @Put('users/me/notification-options')
  @RequireScopes()
  async setOption(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>) {
    const userId = this.userOf(principal);
    const type = body?.type;
    if (typeof type !== 'string' || !NOTIFICATION_TYPES.includes(type as NotificationType)) {
      throw new BadRequestException(`type must be one of ${NOTIFICATION_TYPES.join(', ')}`);
    }
    const values = OPTION_VALUES[type as NotificationType];
    if (typeof body.value !== 'string' || !values.includes(body.value)) throw new BadRequestException(`value must be one of ${values.join(', ')}`);
    if (body.scopeType !== undefined && body.scopeType !== 'user') throw new BadRequestException('scopeType: only "user" is supported');
    await this.repository.setSetting(this.database, userId, type, body.value);
    return this.option(userId, type as NotificationType, body.value);
  }

  private userOf(principal: Principal): string {
    if (!principal.userId) throw new BadRequestException('notification options belong to a user: use a user token or sign in');
    return principal.userId;
  }

  private option(userId: string, type: NotificationType, value: string) {
    return { id: `${userId}-${type}`, scopeType: 'user', scopeIdentifier: userId, type, value, user_id: userId, team_id: null };
  }
}

/** The pages the unsubscribe link of every mail opens (pages, not the API: no prefix). */
@ApiTags('Notifications')
@Controller()
export class UnsubscribeController {
  constructor(
    private readonly database: Database,
    private readonly repository: NotificationsRepository,
  ) {}

  /** The page an unsubscribe link opens: it asks, so that a mail scanner following links changes nothing. */
  @Public()
  @Get('unsubscribe/:token')
  async unsubscribePage(@Param('token') token: string, @Res() reply: FastifyReply) {
    const target = readUnsubscribeToken(await this.repository.signingKey(this.database), token);
    if (!target) return reply.status(404).type('text/html; charset=utf-8').send(page('Link not valid', '<p>This unsubscribe link is not valid.</p>'));
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Unsubscribe',
          `<p>Stop ${target.type === 'alerts' ? 'alert' : 'workflow'} e-mail?</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
  }

  /** Turns the link's type of mail off for its user (also RFC 8058 one-click List-Unsubscribe-Post). */
  @Public()
  @Post('unsubscribe/:token')
  @HttpCode(200)
  async unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply) {
    const target = readUnsubscribeToken(await this.repository.signingKey(this.database), token);
    if (!target) throw new NotFoundException('This unsubscribe link is not valid.');
    await this.repository.setSetting(this.database, target.userId, target.type, 'never');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Unsubscribed',
          `<p>You will get no more ${target.type === 'alerts' ? 'alert' : 'workflow'} e-mail. Change this in your notification settings.</p>`,
        ),
      );
  }
}
