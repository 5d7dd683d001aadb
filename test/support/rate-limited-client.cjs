// An application using the official @sentry/node SDK against a DSN key with a small rate limit:
// a burst of errors, one more once the SDK knows errors are limited, then a check-in and a session.
// Usage: node rate-limited-client.cjs <dsn> <errors in the burst>
const Sentry = require('@sentry/node');

const [dsn, burst = '4'] = process.argv.slice(2);

Sentry.init({ dsn, release: 'shop@2.0.0', environment: 'e2e', defaultIntegrations: false, tracesSampleRate: 0, sendClientReports: false });

async function main() {
  // One request at a time, so the SDK has read each answer's rate limits before the next error.
  for (let n = 0; n < Number(burst); n++) {
    Sentry.captureException(new Error(`Burst error ${n}`));
    await Sentry.flush(5000);
  }
  Sentry.captureException(new Error('An error while errors are limited'));
  Sentry.captureCheckIn({ monitorSlug: 'nightly-export', status: 'ok', duration: 1.5 });
  await Sentry.flush(5000);
  Sentry.startSession();
  Sentry.endSession();
  await Sentry.flush(5000);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
