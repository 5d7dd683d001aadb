import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Clock } from '@faultline/kernel';
import { type AppConfig, configureHttp, createLogger, fastifyOptions, PinoNestLogger } from '@faultline/platform';
import { MIGRATIONS } from '../../../migrations';
import { serveWebInterface } from '../../web/src';
import { AppModule } from './app.module';
import { loadModules } from './extension-modules/module-loader';

/** Builds the application for a role; main.ts and the e2e tests both start it this way. */
export async function createApp(config: AppConfig, options: { clock?: Clock } = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config.logLevel, config.role, config.logFormat);
  const modules = loadModules(config, { coreMigrations: MIGRATIONS });
  if (modules.length) logger.info({ modules: modules.map(({ name, spec }) => ({ name, spec })) }, 'extension modules loaded');
  const adapter = new FastifyAdapter({ ...fastifyOptions(config, logger), routerOptions: { ignoreTrailingSlash: true } } as never);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, { modules, clock: options.clock }), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  if (config.role === 'worker') {
    // A worker serves only health and metrics; the API runs in api processes.
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRequest', async (request, reply) => {
        if (request.url.startsWith('/api/')) await reply.status(404).send({ detail: 'This process runs background workers only (ROLE=worker).' });
      });
  }
  configureHttp(app, config);
  if (config.role !== 'worker') serveWebInterface(app);
  return app;
}
