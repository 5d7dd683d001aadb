import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { CurrentPrincipal, type Principal, RequireScopes } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';
import { EnrollSecurityKeyCommand } from '../application/commands/enroll-security-key/enroll-security-key.command';
import type { SecurityKeyEnrolment } from '../application/commands/enroll-security-key/enroll-security-key.handler';
import { RemoveSecurityKeyCommand } from '../application/commands/remove-security-key/remove-security-key.command';
import { RenameSecurityKeyCommand } from '../application/commands/rename-security-key/rename-security-key.command';
import { StartSecurityKeyEnrolmentCommand } from '../application/commands/start-security-key-enrolment/start-security-key-enrolment.command';
import { SECURITY_KEY_LIMITS } from '../domain/security-keys';
import { browserUser } from './authenticators.controller';
import { EnrollSecurityKeyDto, parseCredentialResponse, RenameSecurityKeyDto } from './security-keys.dto';

/**
 * Security keys (WebAuthn) at Sentry's `u2f` interface paths: enrolment (`GET`/`POST u2f/enroll/`)
 * and one key (`PUT`/`DELETE {authenticator}/{key_handle}/`). Like the authenticator app, changed
 * only from a signed-in browser session.
 */
@ApiTags('Users')
@Controller('api/0/users/:user_id/authenticators')
export class SecurityKeysController {
  constructor(private readonly commands: CommandBus) {}

  /** Sentry's shape: the creation options, base64-encoded JSON, in `challenge.webAuthnRegisterData`; the challenge is bound to this session. */
  @Get('u2f/enroll')
  @RequireScopes()
  async enrolment(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string) {
    const userId = browserUser(principal, userParam);
    const options = await this.commands.execute<StartSecurityKeyEnrolmentCommand, PublicKeyCredentialCreationOptionsJSON>(
      new StartSecurityKeyEnrolmentCommand(userId, principal.sessionId!),
    );
    return {
      id: 'u2f',
      form: [{ name: 'deviceName', label: 'Device name', type: 'string', required: false, max_length: SECURITY_KEY_LIMITS.nameLength }],
      challenge: { webAuthnRegisterData: Buffer.from(JSON.stringify(options)).toString('base64') },
    };
  }

  @Post('u2f/enroll')
  @HttpCode(200)
  @RequireScopes()
  async enroll(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Body() body: EnrollSecurityKeyDto) {
    const userId = browserUser(principal, userParam);
    const response = parseCredentialResponse<RegistrationResponseJSON>(body.response, 'attestationObject');
    if (!response) throw new BadRequestException({ detail: 'The response is not a WebAuthn registration.', response: ['Not a WebAuthn registration.'] });
    const name = body.deviceName?.trim() || 'Security key';
    const enrolment = await this.commands.execute<EnrollSecurityKeyCommand, SecurityKeyEnrolment>(
      new EnrollSecurityKeyCommand(userId, principal.sessionId!, name, response),
    );
    return { id: enrolment.authenticatorId, type: 'u2f', recoveryCodes: enrolment.recoveryCodes };
  }

  @Put(':authenticator_id/:key_handle')
  @HttpCode(204)
  @RequireScopes()
  async rename(
    @CurrentPrincipal() principal: Principal,
    @Param('user_id') userParam: string,
    @Param('authenticator_id') id: string,
    @Param('key_handle') keyHandle: string,
    @Body() body: RenameSecurityKeyDto,
  ): Promise<void> {
    const userId = browserUser(principal, userParam);
    await this.commands.execute(new RenameSecurityKeyCommand(userId, numericId(id), keyHandle, body.name.trim() || 'Security key'));
  }

  @Delete(':authenticator_id/:key_handle')
  @HttpCode(204)
  @RequireScopes()
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('user_id') userParam: string,
    @Param('authenticator_id') id: string,
    @Param('key_handle') keyHandle: string,
  ): Promise<void> {
    const userId = browserUser(principal, userParam);
    await this.commands.execute(new RemoveSecurityKeyCommand(userId, numericId(id), keyHandle));
  }
}

/** An id that is not a number is no authenticator: 0 matches none. */
const numericId = (id: string): string => (isNumericId(id) ? id : '0');
