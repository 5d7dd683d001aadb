// An application using the official @sentry/node SDK with tracing and release health, for the usage
// stats: errors, a transaction, a session, and events its own beforeSend drops (which the SDK then
// tells of in a client report).
// Usage: node usage-client.cjs <dsn> <scenario: usage | burst>
const Sentry = require('@sentry/node');

const [dsn, scenario = 'usage'] = process.argv.slice(2);

Sentry.init({
  dsn,
  release: 'shop@2.0.0',
  environment: 'e2e',
  defaultIntegrations: false,
  tracesSampleRate: 1,
  // A root span is sent as a transaction (the default, "stream", sends span items).
  traceLifecycle: 'static',
  sendClientReports: true,
  beforeSend: (event) => (event.message === 'dropped by beforeSend' ? null : event),
});

function fail(message) {
  try {
    throw new Error(message);
  } catch (error) {
    Sentry.captureException(error);
  }
}

async function main() {
  if (scenario === 'burst') {
    // More errors than the key allows: the first are counted against its limit, the rest 429.
    for (let n = 0; n < 5; n++) fail(`Burst failure ${n}`);
    return flush();
  }
  fail('Payment failed');
  fail('Ignored by the inbound filter');
  Sentry.captureMessage('Inventory low', 'warning');
  Sentry.captureMessage('dropped by beforeSend', 'error');
  Sentry.captureMessage('dropped by beforeSend', 'error');
  Sentry.startSpan({ name: 'GET /checkout', op: 'http.server' }, () => Sentry.startSpan({ name: 'charge card', op: 'db' }, () => undefined));
  Sentry.startSession();
  Sentry.captureSession(true);
  await flush();
}

async function flush() {
  if (!(await Sentry.flush(10000))) {
    console.error('usage-client: flush timed out');
    process.exit(2);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
