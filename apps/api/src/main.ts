import 'reflect-metadata';
import { EmbeddedDatabaseError } from '@faultline/embedded-postgres';
import { ConfigError, loadConfig, recordPublicUrl } from '@faultline/platform';
import { BootstrapService } from './bootstrap.service';
import { createApp } from './create-app';
import { ModuleLoadError } from './extension-modules/module-loader';

function roleFromArgs(argv: string[]): string | undefined {
  const index = argv.indexOf('--role');
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith('--role='))?.slice('--role='.length);
}

/**
 * Under `npm start` a SIGTERM ends npm and its shell but never reaches this process, which would
 * keep running, orphaned, holding the port and the data directory. Orphaned, it stops as on SIGTERM.
 */
function stopWhenOrphaned(): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 500).unref();
}

async function main(): Promise<void> {
  const role = roleFromArgs(process.argv.slice(2));
  const config = loadConfig(role ? { ...process.env, ROLE: role } : process.env);
  const app = await createApp(config);
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // Stop accepting, finish in-flight requests and background batches, close the database.
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
  stopWhenOrphaned();
  await app.listen(config.port, config.host);
  recordPublicUrl(config.dataDir, config.publicUrl);
  app
    .getHttpAdapter()
    .getInstance()
    .log.info(
      { url: config.publicUrl, role: config.role, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})` },
      'Faultline is listening',
    );
  if (config.role !== 'worker') process.stdout.write(await app.get(BootstrapService).startBanner());
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : error instanceof ModuleLoadError || error instanceof EmbeddedDatabaseError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
