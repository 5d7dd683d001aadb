import { isNumericId } from '@faultline/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AcceptEnvelope, INGEST_LIMITS } from '../application/accept-envelope';
import { rateLimitsHeader, retryAfterSeconds } from '../domain';

const CORS_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, content-encoding, x-sentry-auth, authorization, sentry-trace, baggage, x-requested-with, accept, origin',
  'access-control-expose-headers': 'x-sentry-error, x-sentry-rate-limits, retry-after',
  'access-control-max-age': '3600',
};

function cors(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('access-control-allow-origin', request.headers.origin ?? '*');
  void reply.headers(CORS_HEADERS);
}

/** Each SDK endpoint's path under `/api/{project_id}/`; `attachments` is Relay's legacy upload of an event's files. */
const PATHS = { envelope: 'envelope/', store: 'store/', minidump: 'minidump/', attachments: 'events/:eventId/attachments/' } as const;

/**
 * The SDK protocol endpoints. They live in their own Fastify scope because SDKs send raw,
 * possibly compressed bodies of any content type, and authenticate with DSN keys, not tokens.
 */
export function sdkRoutes(acceptor: AcceptEnvelope, wake: () => void) {
  return async (scope: FastifyInstance): Promise<void> => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_LIMITS.maxBodyBytes }, (_request, body, done) => done(null, body));

    const handle = (kind: keyof typeof PATHS) => async (request: FastifyRequest, reply: FastifyReply) => {
      cors(request, reply);
      const { projectId, eventId } = request.params as { projectId: string; eventId?: string };
      if (!isNumericId(projectId)) return reply.status(400).send({ detail: 'project id must be numeric' });
      const result = await acceptor.accept(
        {
          kind,
          projectId,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          contentEncoding: request.headers['content-encoding'],
          contentType: request.headers['content-type'],
          eventId,
          authHeader: (request.headers['x-sentry-auth'] as string | undefined) ?? authorizationSentry(request.headers.authorization),
          query: request.query as Record<string, unknown>,
          clientIp: request.ip,
        },
        wake,
      );
      // With 200 the limits name the categories dropped; Retry-After alone would stop every category.
      if ((result.status === 200 || result.status === 429) && result.rateLimits) void reply.header('x-sentry-rate-limits', rateLimitsHeader(result.rateLimits));
      if (result.status === 429) void reply.header('retry-after', String(retryAfterSeconds(result.rateLimits)));
      if (result.status !== 200) void reply.header('x-sentry-error', result.body.detail);
      // Breakpad and Crashpad read the event id of a minidump upload as plain text, as Relay answers it.
      if (kind === 'minidump' && result.status === 200)
        return reply
          .status(200)
          .type('text/plain; charset=utf-8')
          .send(result.body.id ?? '');
      // Relay answers the legacy attachment upload 201 with no body.
      if (kind === 'attachments' && result.status === 200) return reply.status(201).send();
      return reply.status(result.status).send(result.body);
    };

    const checkIn = async (request: FastifyRequest, reply: FastifyReply) => {
      cors(request, reply);
      const { projectId, monitorSlug, sentryKey } = request.params as { projectId: string; monitorSlug: string; sentryKey?: string };
      if (!isNumericId(projectId)) return reply.status(400).send({ detail: 'project id must be numeric' });
      const result = await acceptor.acceptHttpCheckIn({
        projectId,
        monitorSlug,
        sentryKey,
        authHeader: (request.headers['x-sentry-auth'] as string | undefined) ?? authorizationSentry(request.headers.authorization),
        query: request.query as Record<string, unknown>,
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      });
      if (result.status === 429)
        void reply.header('x-sentry-rate-limits', rateLimitsHeader(result.rateLimits)).header('retry-after', String(retryAfterSeconds(result.rateLimits)));
      if (result.status !== 202) return reply.header('x-sentry-error', result.body.detail).status(result.status).send(result.body);
      return reply.status(202).send();
    };
    for (const path of ['/api/:projectId/cron/:monitorSlug/:sentryKey/', '/api/:projectId/cron/:monitorSlug/']) {
      scope.get(path, checkIn);
      scope.post(path, checkIn);
    }

    for (const [kind, path] of Object.entries(PATHS) as Array<[keyof typeof PATHS, string]>) {
      scope.post(`/api/:projectId/${path}`, handle(kind));
      scope.options(`/api/:projectId/${path}`, async (request, reply) => {
        cors(request, reply);
        return reply.status(200).send();
      });
    }
  };
}

/** Some SDKs send the Sentry auth string in Authorization instead of X-Sentry-Auth. */
function authorizationSentry(value: string | undefined): string | undefined {
  return value && /^sentry\s/i.test(value) ? value : undefined;
}
