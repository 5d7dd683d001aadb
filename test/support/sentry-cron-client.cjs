// A real application's cron jobs reported with the official @sentry/node SDK to the DSN it is given.
// The SDK sends a run's two check-ins concurrently, and the closing one names no monitor_config: the
// server must pair it with the in-progress check-in that creates the monitor, whichever comes first.
// Usage: node sentry-cron-client.cjs <dsn>
const Sentry = require('@sentry/node');

const [dsn] = process.argv.slice(2);
Sentry.init({ dsn, environment: 'production', defaultIntegrations: false, tracesSampleRate: 0 });

async function main() {
  // A nightly job that succeeds, upserting its monitor.
  await Sentry.withMonitor('nightly-report', () => 'done', {
    schedule: { type: 'crontab', value: '0 2 * * *' },
    checkinMargin: 5,
    maxRuntime: 10,
    timezone: 'Europe/Vienna',
  });
  // A job that throws: its error check-in fails the monitor at once (threshold 1).
  try {
    await Sentry.withMonitor(
      'flaky-import',
      () => {
        throw new Error('import failed');
      },
      { schedule: { type: 'interval', value: 10, unit: 'minute' }, failureIssueThreshold: 1, recoveryThreshold: 1 },
    );
  } catch {
    // reported by withMonitor
  }
  // A heartbeat reported by hand, every minute.
  Sentry.captureCheckIn(
    { monitorSlug: 'heartbeat', status: 'ok' },
    { schedule: { type: 'interval', value: 1, unit: 'minute' }, checkinMargin: 1, maxRuntime: 1 },
  );
  await Sentry.flush(10_000);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
