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

async function main() {
  Sentry.setUser({ id: 'u-42', email: 'jane@example.com', username: 'jane' });
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
