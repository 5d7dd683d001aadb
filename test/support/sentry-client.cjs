// A real application using the official @sentry/node SDK: reports errors to the DSN it is given.
// Usage: node sentry-client.cjs <dsn> <scenario>
const Sentry = require('@sentry/node');

const [dsn, scenario = 'checkout'] = process.argv.slice(2);

Sentry.init({
  dsn,
  release: 'shop@1.2.3',
  environment: 'e2e',
  defaultIntegrations: false,
  tracesSampleRate: 0,
});

function chargeCard(amount) {
  if (amount > 100) throw new TypeError(`Card declined for amount ${amount}`);
}

/** Text PostgreSQL cannot store (NUL, a lone surrogate) in the message, tags, extra keys and a breadcrumb. */
function unstorable() {
  Sentry.setTag('nul\u0000key', 'nul\u0000value');
  Sentry.setTag('half', 'lone \ud800 surrogate');
  Sentry.setExtra('extra\u0000key', { 'nested\u0000key': 'nested\u0000value' });
  Sentry.addBreadcrumb({ category: 'nul\u0000', message: 'crumb \u0000 \udc00' });
  Sentry.captureMessage('Disk\u0000full on volume \ud83d\udcbe', 'error');
}

async function main() {
  Sentry.setUser({ id: 'u-42', email: 'jane@example.com', username: 'jane' });
  if (scenario === 'unstorable') {
    unstorable();
    return flush();
  }
  Sentry.setTag('feature', 'checkout');
  const scenarios = {
    // The same error from the same place, twice: one issue with two events.
    checkout: () => [150, 175],
    once: () => [200],
    'error-only': () => [300],
  };
  for (const amount of scenarios[scenario]()) {
    try {
      chargeCard(amount);
    } catch (error) {
      Sentry.captureException(error);
    }
  }
  if (scenario !== 'error-only') Sentry.captureMessage(`Inventory low for item ${Math.floor(Math.random() * 1000)}`, 'warning');
  await flush();
}

async function flush() {
  const flushed = await Sentry.flush(10000);
  if (!flushed) {
    console.error('sentry-client: flush timed out');
    process.exit(2);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
