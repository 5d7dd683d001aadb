import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { type FastifyServerOptions, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { withStatementTimeout } from '../database/statement-timeout';
import { Metrics } from '../observability/metrics';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { MAX_BODY_DEPTH, nestsDeeperThan, TOO_DEEP_DETAIL } from './body-depth';
import { PUBLIC_URL_KEY } from './pagination';
import { holdsUnstorableText, UNSTORABLE_TEXT_DETAIL } from './storable-input';
import { ApiValidationPipe } from './validation.pipe';

/**
 * Fastify options: request ids (taken from X-Request-Id when sent). Fastify's own two lines per
 * request are off; configureHttp logs one per request, at debug.
 */
export function fastifyOptions(config: AppConfig, logger: Logger): FastifyServerOptions {
  return {
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Forwarded headers are believed only from the configured proxies: anyone else could name any address.
    trustProxy: Array.isArray(config.trustProxy) ? [...config.trustProxy] : config.trustProxy,
    return503OnClosing: true,
    // Errors found while routing, before Nest sees the request: the same `{"detail"}` body.
    frameworkErrors: (error: Error & { code?: string }, _request: unknown, reply: { status(code: number): { send(body: unknown): void } }) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') reply.status(414).send({ detail: 'A part of the path is too long.' });
      else if (error.code === 'FST_ERR_BAD_URL') reply.status(400).send({ detail: 'Malformed URL.' });
      else reply.status(500).send({ detail: 'Internal Error' });
    },
  } as FastifyServerOptions;
}

/** Error format, validation, request ids, metrics and the OpenAPI document for a Nest app on Fastify. */
export function configureHttp(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(Metrics);
  fastify.decorate(PUBLIC_URL_KEY, config.publicUrl);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  if (config.apiStatementTimeoutMs > 0) {
    // A callback hook, so the rest of the request (later hooks, guards, the handler) runs inside the budget.
    fastify.addHook('preHandler', (_request, _reply, done) => withStatementTimeout(config.apiStatementTimeoutMs, done));
  }
  // Refused before anything runs (whatever the content type's parser), so no handler meets it
  // half-way through its writes and no validator recurses through unbounded nesting.
  fastify.addHook('preHandler', async (request, reply) => {
    if (request.body === undefined) return;
    if (nestsDeeperThan(request.body, MAX_BODY_DEPTH)) await reply.status(400).send({ detail: TOO_DEEP_DETAIL });
    else if (holdsUnstorableText(request.body)) await reply.status(400).send({ detail: UNSTORABLE_TEXT_DETAIL });
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    request.log.debug(
      { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(new ApiValidationPipe());
  setUpOpenApi(app);
}

function setUpOpenApi(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Faultline API')
      .setDescription('Sentry-compatible error tracking API. Authenticate with `Authorization: Bearer <token>`.')
      .setVersion('0')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs.json', ui: true });
}
