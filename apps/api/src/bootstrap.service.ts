import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import {
  ApiTokenExistsQuery,
  CountUsersQuery,
  CreateApiTokenCommand,
  type CreatedApiToken,
  CreateOrganizationCommand,
  CreateTeamCommand,
  CreateUserCommand,
  FindOrganizationQuery,
  FindTeamQuery,
  FindUserQuery,
  generatePassword,
  type OrganizationSummary,
  SetUserPasswordCommand,
  type TeamSummary,
  type UserSummary,
} from '@faultline/identity';
import { APP_CONFIG, type AppConfig } from '@faultline/platform';
import { CreateProjectCommand, FindProjectKeysQuery, FindProjectQuery, type ProjectKeySummary, type ProjectSummary } from '@faultline/projects';
import { formatStartBanner } from './start-banner';

/**
 * Makes a new installation usable at once: on an empty database it creates an instance
 * administrator, an organization, a team, a project and a token with every scope. With
 * BOOTSTRAP_TOKEN set it also restores whichever of these are missing on a database in use.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');
  /** Secrets generated at this start, for the start banner; only their hashes are stored. */
  private readonly generated: { password?: string; token?: string } = {};

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.role === 'worker') return;
    const users = await this.queries.execute<CountUsersQuery, number>(new CountUsersQuery());
    if (users > 0 && !this.config.bootstrap.token) {
      // A database in use: BOOTSTRAP_PASSWORD alone only gives the bootstrap user a password it lacks.
      const user = await this.findUser({ email: this.config.bootstrap.email });
      if (user && this.config.bootstrap.password) await this.ensurePassword(user.id);
      return;
    }
    await this.ensure(users === 0);
  }

  private async ensure(emptyDatabase: boolean): Promise<void> {
    const { email, org, project, token } = this.config.bootstrap;
    const userId = await this.ensureUser(email);
    const organizationId = await this.ensureOrganization(org, userId);
    const team = await this.ensureTeam(organizationId, org, userId);
    const projectCreated = await this.ensureProject(organizationId, team.slug, project);
    const plaintext = await this.ensureToken(userId, token);
    const password = await this.ensurePassword(userId);
    if (password && !this.config.bootstrap.password) this.generated.password = password;
    if (plaintext && !token) this.generated.token = plaintext;
    if (emptyDatabase || projectCreated || plaintext) this.logger.log(`bootstrap: organization "${org}", project "${project}"`);
  }

  /** The start banner: the URL, the sign-in, the secrets generated now and the bootstrap project's DSN. */
  async startBanner(): Promise<string> {
    const { email, org, project } = this.config.bootstrap;
    const keys = await this.queries.execute<FindProjectKeysQuery, ProjectKeySummary[] | null>(new FindProjectKeysQuery(org, project));
    const dsn = keys?.[0]?.dsn;
    return formatStartBanner({
      url: this.config.publicUrl,
      email,
      generatedPassword: this.generated.password,
      generatedToken: this.generated.token,
      project: dsn ? { org, slug: project, dsn } : undefined,
    });
  }

  private async ensureUser(email: string): Promise<string> {
    const existing = await this.findUser({ email });
    if (existing) return existing.id;
    const user = await this.commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand(email, 'Administrator', true));
    return user.id;
  }

  private async ensureOrganization(slug: string, userId: string): Promise<string> {
    const existing = await this.queries.execute<FindOrganizationQuery, OrganizationSummary | null>(new FindOrganizationQuery(slug));
    if (existing) return existing.id;
    const created = await this.commands.execute<CreateOrganizationCommand, { id: string }>(new CreateOrganizationCommand(slug, slug, userId));
    return created.id;
  }

  private async ensureTeam(organizationId: string, slug: string, userId: string): Promise<TeamSummary> {
    const existing = await this.queries.execute<FindTeamQuery, TeamSummary | null>(new FindTeamQuery(organizationId, slug));
    if (existing) return existing;
    await this.commands.execute(new CreateTeamCommand(organizationId, slug, slug, userId));
    return (await this.queries.execute<FindTeamQuery, TeamSummary | null>(new FindTeamQuery(organizationId, slug))) as TeamSummary;
  }

  private async ensureProject(organizationId: string, teamSlug: string, slug: string): Promise<boolean> {
    const existing = await this.queries.execute<FindProjectQuery, ProjectSummary | null>(new FindProjectQuery(organizationId, slug));
    if (existing) return false;
    await this.commands.execute(new CreateProjectCommand(organizationId, teamSlug, slug, slug, null));
    return true;
  }

  /**
   * Gives the bootstrap user a password when it has none: BOOTSTRAP_PASSWORD, or a generated one.
   * Answers the password set, or undefined when the user already had one (it is never overwritten).
   */
  private async ensurePassword(userId: string): Promise<string | undefined> {
    const user = (await this.findUser({ id: userId })) as UserSummary;
    if (user.hasPassword) return undefined;
    const password = this.config.bootstrap.password ?? generatePassword();
    await this.commands.execute(new SetUserPasswordCommand(user.email, password));
    return password;
  }

  private findUser(by: { email: string } | { id: string }): Promise<UserSummary | null> {
    return this.queries.execute<FindUserQuery, UserSummary | null>(new FindUserQuery(by));
  }

  /** Answers the new token's value, or undefined when the chosen token already exists. */
  private async ensureToken(userId: string, chosen: string | undefined): Promise<string | undefined> {
    if (chosen) {
      if (await this.queries.execute<ApiTokenExistsQuery, boolean>(new ApiTokenExistsQuery(chosen))) return undefined;
    }
    const created = await this.commands.execute<CreateApiTokenCommand, CreatedApiToken>(
      new CreateApiTokenCommand('user', { userId }, 'Bootstrap token', [...ALL_SCOPES], expandScopes(ALL_SCOPES), chosen),
    );
    return created.plaintext;
  }
}
