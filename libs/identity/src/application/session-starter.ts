import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@faultline/event-store';
import type { Transaction } from '@faultline/platform';
import { SESSION_STREAM_TYPE, sessionStarted, sessionStream } from '../domain/identity.events';
import { issueSession } from '../domain/user-session';
import { SessionsRepository } from '../infrastructure/sessions.repository';

export interface StartedSession {
  readonly sessionId: string;
  /** The cookie's value: returned this once, stored only as a hash. */
  readonly cookieValue: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
  readonly user: { id: string; email: string; name: string; isSuperuser: boolean };
}

export interface SessionClient {
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
}

/** Starts a browser session for a user who has passed every step of signing in. */
@Injectable()
export class SessionStarter {
  constructor(
    private readonly repository: SessionsRepository,
    private readonly events: EventRecorder,
  ) {}

  async start(
    tx: Transaction,
    user: { id: string; email: string; name: string; is_superuser: boolean },
    /** `ssoOrganizationId`: the organization whose single sign-on this session passed. */
    options: { ttlMs: number; client: SessionClient; now: Date; ssoOrganizationId?: string },
  ): Promise<StartedSession> {
    const issued = issueSession();
    const expiresAt = new Date(options.now.getTime() + options.ttlMs);
    await this.repository.pruneExpired(tx, options.now);
    const session = await this.repository.insertSession(tx, {
      userId: user.id,
      tokenHash: issued.tokenHash,
      csrfToken: issued.csrfToken,
      createdAt: options.now,
      expiresAt,
      userAgent: options.client.userAgent?.slice(0, 512) ?? null,
      ipAddress: options.client.ipAddress,
      ssoOrganizationId: options.ssoOrganizationId,
    });
    await this.events.record(tx, sessionStream(session.id), SESSION_STREAM_TYPE, [
      sessionStarted({ sessionId: session.id, userId: user.id, expiresAt: expiresAt.toISOString() }),
    ]);
    return {
      sessionId: session.id,
      cookieValue: issued.cookieValue,
      csrfToken: issued.csrfToken,
      expiresAt,
      user: { id: user.id, email: user.email, name: user.name, isSuperuser: user.is_superuser },
    };
  }
}
