import { Module } from '@nestjs/common';
import { OutboundHttpClients, PolicyOutboundHttpClients } from '@faultline/platform';
import { OidcController } from './api/oidc.controller';
import { StartOidcSignInHandler } from './application/commands/start-oidc-sign-in/start-oidc-sign-in.handler';
import { CompleteOidcSignInHandler } from './application/commands/complete-oidc-sign-in/complete-oidc-sign-in.handler';
import { OidcRelyingParty } from './infrastructure/oidc-relying-party';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { AuthDirectory } from '@faultline/platform';
import { ApiTokensController, OrgAuthTokensController } from './api/api-tokens.controller';
import { ApiIndexController } from './api/api-index.controller';
import { AuthController } from './api/auth.controller';
import { AccountSessionsController, UserIdentitiesController } from './api/account-sessions.controller';
import { AuthenticatorsController } from './api/authenticators.controller';
import { CompleteTwoFactorSignInHandler } from './application/commands/complete-two-factor-sign-in/complete-two-factor-sign-in.handler';
import { EnrollTotpHandler } from './application/commands/enroll-totp/enroll-totp.handler';
import { RegenerateRecoveryCodesHandler } from './application/commands/regenerate-recovery-codes/regenerate-recovery-codes.handler';
import { RemoveAuthenticatorHandler } from './application/commands/remove-authenticator/remove-authenticator.handler';
import { UnlinkSsoIdentityHandler } from './application/commands/unlink-sso-identity/unlink-sso-identity.handler';
import { SessionStarter } from './application/session-starter';
import { TwoFactorRepository } from './infrastructure/two-factor.repository';
import { SecurityKeysController } from './api/security-keys.controller';
import { SECURITY_KEY_PROVIDERS } from './security-keys.providers';
import { IdpMetadataImport } from './application/idp-metadata-import';
import { AuthProviderController } from './api/auth-provider.controller';
import { SamlController } from './api/saml.controller';
import { CompleteSamlSignInHandler } from './application/commands/complete-saml-sign-in/complete-saml-sign-in.handler';
import { LinkSsoAccountHandler } from './application/commands/link-sso-account/link-sso-account.handler';
import { StartSamlSignInHandler } from './application/commands/start-saml-sign-in/start-saml-sign-in.handler';
import { SsoSessions } from './application/sso-sessions';
import { SamlServiceProvider } from './infrastructure/saml-service-provider';
import { SsoRepository } from './infrastructure/sso.repository';
import { ConfigureAuthProviderHandler } from './application/commands/configure-auth-provider/configure-auth-provider.handler';
import { DeleteAuthProviderHandler } from './application/commands/delete-auth-provider/delete-auth-provider.handler';
import { ScimProviders } from './contracts/scim-providers';
import { AuthProviderRepository } from './infrastructure/auth-provider.repository';
import { MembersController } from './api/members.controller';
import { OrganizationsController } from './api/organizations.controller';
import { TeamsController } from './api/teams.controller';
import { CreateApiTokenHandler } from './application/commands/create-api-token/create-api-token.handler';
import { CreateOrganizationHandler } from './application/commands/create-organization/create-organization.handler';
import { CreateTeamHandler } from './application/commands/create-team/create-team.handler';
import { CreateUserHandler } from './application/commands/create-user/create-user.handler';
import { RevokeApiTokenHandler } from './application/commands/revoke-api-token/revoke-api-token.handler';
import { SetUserPasswordHandler } from './application/commands/set-user-password/set-user-password.handler';
import { SignInHandler } from './application/commands/sign-in/sign-in.handler';
import { SignOutHandler } from './application/commands/sign-out/sign-out.handler';
import { UpdateOrganizationHandler } from './application/commands/update-organization/update-organization.handler';
import { ChangeTeamHandler } from './application/commands/change-team/change-team.handler';
import { DeleteTeamHandler } from './application/commands/delete-team/delete-team.handler';
import { ProvisionMemberHandler } from './application/commands/provision-member/provision-member.handler';
import { ProvisionTeamHandler } from './application/commands/provision-team/provision-team.handler';
import { RemoveMemberHandler } from './application/commands/remove-member/remove-member.handler';
import { UpdateMemberProfileHandler } from './application/commands/update-member-profile/update-member-profile.handler';
import {
  ApiTokenExistsHandler,
  CountUsersHandler,
  FindOrganizationHandler,
  FindUserHandler,
  MayReadAttachmentsHandler,
} from './application/queries/directory-queries.handler';
import { FindTeamHandler, FindUserTeamsHandler } from './application/queries/team-queries.handler';
import { AuthCache } from './infrastructure/auth-cache';
import { IdentityAuthDirectory } from './infrastructure/identity-auth-directory';
import { IdentityRepository } from './infrastructure/identity.repository';
import { IntegrationTokenStore } from './infrastructure/integration-tokens.repository';
import { Actors } from './contracts/actors';
import { MemberEmails } from './contracts/member-emails';
import { MemberEmailsRepository } from './infrastructure/member-emails.repository';
import { MemberInvites } from './contracts/member-invites';
import { InvitesRepository } from './infrastructure/invites.repository';
import { InviteMailBudget } from './infrastructure/invite-mail-budget.repository';
import { identityConfigProvider } from './infrastructure/identity-config';
import { MemberInvitesReader } from './infrastructure/member-invites';
import { AcceptInviteHandler } from './application/commands/accept-invite/accept-invite.handler';
import { InviteMemberHandler } from './application/commands/invite-member/invite-member.handler';
import { ReinviteMemberHandler } from './application/commands/reinvite-member/reinvite-member.handler';
import { RevokeInviteHandler } from './application/commands/revoke-invite/revoke-invite.handler';
import { AcceptInviteController } from './api/accept-invite.controller';
import { IntegrationTokens } from './contracts/integration-tokens';
import { ProvisioningRepository } from './infrastructure/provisioning.repository';
import { SessionsRepository } from './infrastructure/sessions.repository';
import { SignInThrottle } from './infrastructure/sign-in-throttle';
import { UserActors } from './infrastructure/user-actors.repository';

@Module({
  imports: [CqrsModule, EventStoreModule],
  controllers: [
    ApiIndexController,
    AcceptInviteController,
    AuthController,
    AuthenticatorsController,
    AccountSessionsController,
    UserIdentitiesController,
    SecurityKeysController,
    AuthProviderController,
    SamlController,
    OidcController,
    OrganizationsController,
    MembersController,
    TeamsController,
    ApiTokensController,
    OrgAuthTokensController,
  ],
  providers: [
    IdentityRepository,
    AuthProviderRepository,
    { provide: ScimProviders, useExisting: AuthProviderRepository },
    ConfigureAuthProviderHandler,
    DeleteAuthProviderHandler,
    SsoRepository,
    SamlServiceProvider,
    SsoSessions,
    StartSamlSignInHandler,
    CompleteSamlSignInHandler,
    OidcRelyingParty,
    { provide: OutboundHttpClients, useClass: PolicyOutboundHttpClients },
    StartOidcSignInHandler,
    CompleteOidcSignInHandler,
    LinkSsoAccountHandler,
    ProvisioningRepository,
    SessionsRepository,
    TwoFactorRepository,
    SessionStarter,
    CompleteTwoFactorSignInHandler,
    EnrollTotpHandler,
    RegenerateRecoveryCodesHandler,
    RemoveAuthenticatorHandler,
    UnlinkSsoIdentityHandler,
    ...SECURITY_KEY_PROVIDERS,
    IdpMetadataImport,
    SignInThrottle,
    AuthCache,
    IdentityAuthDirectory,
    { provide: AuthDirectory, useExisting: IdentityAuthDirectory },
    { provide: IntegrationTokens, useClass: IntegrationTokenStore },
    { provide: Actors, useClass: UserActors },
    { provide: MemberEmails, useClass: MemberEmailsRepository },
    identityConfigProvider,
    InvitesRepository,
    InviteMailBudget,
    { provide: MemberInvites, useClass: MemberInvitesReader },
    InviteMemberHandler,
    ReinviteMemberHandler,
    RevokeInviteHandler,
    AcceptInviteHandler,
    CreateUserHandler,
    CreateOrganizationHandler,
    UpdateOrganizationHandler,
    CreateTeamHandler,
    CreateApiTokenHandler,
    RevokeApiTokenHandler,
    FindTeamHandler,
    FindUserHandler,
    CountUsersHandler,
    FindOrganizationHandler,
    MayReadAttachmentsHandler,
    ApiTokenExistsHandler,
    FindUserTeamsHandler,
    ProvisionMemberHandler,
    UpdateMemberProfileHandler,
    RemoveMemberHandler,
    ProvisionTeamHandler,
    ChangeTeamHandler,
    DeleteTeamHandler,
    SetUserPasswordHandler,
    SignInHandler,
    SignOutHandler,
  ],
  exports: [AuthDirectory, ScimProviders, IntegrationTokens, Actors, MemberEmails, MemberInvites],
})
export class IdentityModule {}
