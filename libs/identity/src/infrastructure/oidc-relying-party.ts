import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import * as client from 'openid-client';
import { sha256Hex } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, type OutboundClient, OutboundHttpClients } from '@faultline/platform';
import { OIDC_CALLBACK_PATH, oidcRefused } from '../domain/oidc-sign-in';

/** The issuer's discovery document, its keys and the token answer are small; this bounds what a tenant's issuer makes us read and wait for. */
export const OIDC_HTTP_TIMEOUT_MS = 5_000;
export const OIDC_RESPONSE_LIMIT_BYTES = 256 * 1024;
/** A discovered issuer (metadata and its keys) is reused this long, so that each sign-in is not three requests. */
const DISCOVERY_CACHE_MS = 10 * 60_000;
const DISCOVERY_CACHE_ENTRIES = 500;

export interface OidcClientSettings {
  readonly issuer: string;
  readonly client_id: string;
  readonly client_secret: string;
}

/**
 * This service as an OpenID Connect relying party (openid-client): discovery, the authorization
 * URL (code flow, PKCE S256, state, nonce), and the code exchange with the ID token's checks.
 * Every request to the tenant's issuer goes through the outbound HTTP client, under the address
 * policy the webhooks use (loopback and private addresses refused unless the instance allows them),
 * never following a redirect, with one deadline and a bounded answer.
 */
@Injectable()
export class OidcRelyingParty implements OnModuleDestroy {
  private readonly http: OutboundClient;
  /** Issuers' configurations by issuer and client; concurrent sign-ins through one provider share one discovery. */
  private readonly discovered = new LRUCache<string, client.Configuration, OidcClientSettings>({
    max: DISCOVERY_CACHE_ENTRIES,
    ttl: DISCOVERY_CACHE_MS,
    fetchMethod: (_key, _stale, { context }) => this.discover(context),
  });

  constructor(
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
    clients: OutboundHttpClients,
  ) {
    this.http = clients.open(OIDC_HTTP_TIMEOUT_MS, OIDC_RESPONSE_LIMIT_BYTES);
  }

  /** The one redirect URI every provider is given. */
  get callbackUrl(): string {
    return `${this.appConfig.publicUrl}${OIDC_CALLBACK_PATH}`;
  }

  /** An http issuer is accepted only where private addresses are (a local test or development provider). */
  private get insecureAllowed(): boolean {
    return this.appConfig.webhooks.allowPrivate;
  }

  /** The issuer's configuration, discovered (or cached); a failure says why, for the admin or the sign-in page. */
  async configuration(settings: OidcClientSettings, options: { fresh?: boolean } = {}): Promise<client.Configuration> {
    const key = sha256Hex(`${settings.issuer}\n${settings.client_id}\n${settings.client_secret}`);
    return this.discovered.forceFetch(key, { context: settings, forceRefresh: options.fresh });
  }

  private async discover(settings: OidcClientSettings): Promise<client.Configuration> {
    const issuer = new URL(settings.issuer);
    if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && this.insecureAllowed)) {
      throw oidcRefused('the issuer must be an https URL');
    }
    let config: client.Configuration;
    try {
      config = await client.discovery(issuer, settings.client_id, settings.client_secret, undefined, {
        [client.customFetch]: this.fetch,
        timeout: OIDC_HTTP_TIMEOUT_MS / 1000,
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      });
    } catch (error) {
      throw oidcRefused(`discovery at ${issuer.href} failed (${this.reason(error)})`);
    }
    config[client.customFetch] = this.fetch;
    return config;
  }

  authorizationUrl(config: client.Configuration, request: { scopes: string; state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    return client.calculatePKCECodeChallenge(request.codeVerifier).then((challenge) =>
      client.buildAuthorizationUrl(config, {
        redirect_uri: this.callbackUrl,
        scope: request.scopes,
        state: request.state,
        nonce: request.nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
  }

  /**
   * Redeems the callback's code with the PKCE verifier, and answers the claims of the ID token once
   * its signature, issuer, audience, times and nonce are checked (the callback's `iss` too, when sent).
   */
  async redeem(config: client.Configuration, query: URLSearchParams, checks: { state: string; nonce: string; codeVerifier: string }) {
    const callback = new URL(this.callbackUrl);
    callback.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedNonce: checks.nonce,
        expectedState: checks.state,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      return claims as Readonly<Record<string, unknown>>;
    } catch (error) {
      throw oidcRefused(this.reason(error));
    }
  }

  private reason(error: unknown): string {
    const described = this.http.describeError(error);
    if (described.refused) return described.message;
    const { error: code, error_description: description } = error as { error?: string; error_description?: string };
    if (code) return description ? `${code}: ${description}` : code;
    const cause = (error as { cause?: unknown }).cause;
    const message = error instanceof Error ? error.message : String(error);
    return cause instanceof Error && !message.includes(cause.message) ? `${message}: ${this.http.describeError(cause).message}` : message;
  }

  private readonly fetch: client.CustomFetch = async (url, options) => {
    const answer =
      options.method === 'POST'
        ? await this.http.post(url, options.headers, options.body === undefined || options.body === null ? '' : String(options.body))
        : await this.http.get(url, options.headers);
    if (answer.truncated) throw new Error(`the answer of ${url} is larger than ${OIDC_RESPONSE_LIMIT_BYTES} bytes`);
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : answer.body, { status: answer.statusCode, headers: answer.headers });
  };

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
