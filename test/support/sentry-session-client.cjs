// A real application with release health: the official @sentry/node SDK with its default
// integrations, which track the process as a session (and incoming HTTP requests as aggregates).
// Usage: node sentry-session-client.cjs <dsn> <scenario> [user id]
//   ok: the process ends its session normally; handled: an error is captured, then the session
//   ends; crash: an uncaught exception crashes the process; server: requests to an HTTP server.
const http = require('node:http');
const { setTimeout } = require('node:timers');
const Sentry = require('@sentry/node');

const [dsn, scenario, userId] = process.argv.slice(2);

Sentry.init({ dsn, release: 'shop@2.0.0', environment: 'production', tracesSampleRate: 0 });
if (userId) Sentry.setUser({ id: userId });

async function server() {
  const app = http.createServer((request, response) => {
    if (request.url === '/fail') Sentry.captureException(new Error('Payment service unavailable'));
    response.end('done');
  });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  const { port } = app.address();
  for (const path of ['/', '/cart', '/fail']) {
    await new Promise((resolve, reject) => http.get(`http://127.0.0.1:${port}${path}`, (response) => response.resume().on('end', resolve)).on('error', reject));
  }
  app.close();
}

async function main() {
  if (scenario === 'crash') {
    setTimeout(() => {
      throw new Error('Inventory database unreachable');
    }, 10);
    return;
  }
  if (scenario === 'server') await server();
  if (scenario === 'handled') {
    Sentry.captureException(new Error('Coupon expired'));
    // The session is marked errored as the event is sent; later the process ends it.
    await Sentry.flush(5000);
  }
  if (scenario !== 'server') Sentry.endSession();
  await Sentry.close(5000);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
