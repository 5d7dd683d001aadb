// A minified application under the official @sentry/node SDK: throws from the bundle it is given.
// Usage: node sourcemapped-client.cjs <dsn> <release> <bundle.js>
const Sentry = require('@sentry/node');

const [dsn, release, bundle] = process.argv.slice(2);

Sentry.init({ dsn, release, environment: 'e2e', defaultIntegrations: false, integrations: [Sentry.contextLinesIntegration()], tracesSampleRate: 0 });

try {
  require(bundle).checkout({ items: [{ price: 120 }, { price: 30 }] });
} catch (error) {
  Sentry.captureException(error);
}
Sentry.flush(10_000).then(() => process.exit(0));
