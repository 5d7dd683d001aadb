// A real application using the official @sentry/node SDK: reports errors to the DSN it is given.
// Usage: node sentry-client.cjs <dsn> <scenario>
const { setTimeout: sleep } = require('node:timers/promises');
const Sentry = require('@sentry/node');

const [dsn, scenario = 'checkout'] = process.argv.slice(2);

// A first production deploy reports as such; the other scenarios as an end-to-end run.
const deploy = scenario === 'first-errors' ? { release: 'shop@1.0.0', environment: 'production' } : { release: 'shop@1.2.3', environment: 'e2e' };

Sentry.init({
  dsn,
  ...deploy,
  defaultIntegrations: false,
  // The request on the scope becomes the event's `request`; frames get their source lines.
  integrations: [Sentry.requestDataIntegration(), Sentry.contextLinesIntegration()],
  // More than the 100 the server keeps, to show it keeps the newest.
  maxBreadcrumbs: 150,
  tracesSampleRate: 0,
});

/** A checkout request that fails: everything the SDK can attach to an event. */
function failCheckout() {
  Sentry.setUser({ id: 'u-7', email: 'ada@example.com', username: 'ada', plan: 'pro' });
  Sentry.setTag('feature', 'cart');
  Sentry.setContext('cart', { items: 3, total: 99.5 });
  Sentry.setExtra('attempt', 2);
  for (let step = 0; step < 120; step++) Sentry.addBreadcrumb({ category: 'cart', message: `step ${step}`, data: { step } });
  Sentry.addBreadcrumb({ type: 'http', category: 'http', level: 'warning', data: { url: 'https://pay.example.com/charge', method: 'POST', status_code: 502 } });
  Sentry.getIsolationScope().setSDKProcessingMetadata({
    normalizedRequest: {
      url: 'https://shop.example.com/cart/checkout?coupon=SPRING',
      method: 'POST',
      query_string: 'coupon=SPRING',
      headers: { 'content-type': 'application/json', 'user-agent': 'e2e-agent/1.0', cookie: 'theme=dark' },
      data: '{"items":3,"coupon":"SPRING"}',
    },
  });
  try {
    chargeCard(500);
  } catch (error) {
    Sentry.captureException(error);
  }
}

function chargeCard(amount) {
  if (amount > 100) throw new TypeError(`Card declined for amount ${amount}`);
}

/**
 * A payment failure carrying secrets everywhere an SDK puts them, for data scrubbing. The secrets
 * are put together at run time, so that the frames' source lines do not hold them too.
 */
function leakSecrets() {
  const secret = (...parts) => parts.join('');
  const card = ['4111', '1111', '1111', '1111'].join(' ');
  Sentry.setExtra('password', secret('hunter', '2'));
  Sentry.setExtra('order', 'A-1001');
  Sentry.addBreadcrumb({ category: 'payment', message: `charging ${card}` });
  Sentry.getIsolationScope().setSDKProcessingMetadata({
    normalizedRequest: {
      url: 'https://shop.example.com/pay',
      method: 'POST',
      query_string: `step=2&api_key=${secret('k3y-in-', 'query')}`,
      data: JSON.stringify({ amount: 5, password: secret('pa55-in-', 'body') }),
      headers: {
        authorization: `Bearer ${secret('sk_live_', 'abc123')}`,
        'user-agent': 'e2e-agent/1.0',
        cookie: `sessionid=${secret('s3ss', '10n')}; theme=dark`,
      },
    },
  });
  try {
    throw new Error(`Payment failed for card ${card}`);
  } catch (error) {
    Sentry.captureException(error);
  }
}

/** Text PostgreSQL cannot store (NUL, a lone surrogate) in the message, tags, extra keys and a breadcrumb. */
function unstorable() {
  Sentry.setTag('nul\u0000key', 'nul\u0000value');
  Sentry.setTag('half', 'lone \ud800 surrogate');
  Sentry.setExtra('extra\u0000key', { 'nested\u0000key': 'nested\u0000value' });
  Sentry.addBreadcrumb({ category: 'nul\u0000', message: 'crumb \u0000 \udc00' });
  Sentry.captureMessage('Disk\u0000full on volume \ud83d\udcbe', 'error');
}

/** The same checkout failure for two shoppers, one after the other: one issue with two events in order. */
async function firstErrors() {
  Sentry.setTag('feature', 'checkout');
  Sentry.setContext('cart', { items: 2, currency: 'EUR' });
  Sentry.addBreadcrumb({ category: 'navigation', message: 'opened /cart' });
  Sentry.addBreadcrumb({ type: 'http', category: 'http', level: 'warning', data: { url: 'https://pay.example.com/charge', method: 'POST', status_code: 502 } });
  Sentry.getIsolationScope().setSDKProcessingMetadata({
    normalizedRequest: {
      url: 'https://shop.example.com/cart/checkout?coupon=SPRING',
      method: 'POST',
      query_string: 'coupon=SPRING',
      headers: { 'content-type': 'application/json', 'user-agent': 'e2e-agent/1.0' },
      data: '{"items":2,"coupon":"SPRING"}',
    },
  });
  for (const [shopper, amount] of [
    ['first', 150],
    ['second', 175],
  ]) {
    // Apart in time, so the second is the newer; thrown after a wait each, so from the same stack.
    await sleep(20);
    Sentry.setUser({ id: `u-${shopper}`, email: `${shopper}@example.com`, username: shopper });
    try {
      chargeCard(amount);
    } catch (error) {
      Sentry.captureException(error);
    }
  }
  await flush();
}

/** An error every few milliseconds until the process is stopped: traffic that goes on while something else happens. */
async function stream() {
  for (let n = 0; ; n++) {
    Sentry.setExtra('n', n);
    Sentry.captureMessage('Heartbeat missed', 'error');
    await sleep(40);
  }
}

async function main() {
  if (scenario === 'stream') return stream();
  if (scenario === 'feedback') {
    // A user reports what they were doing when the error happened, and writes once more without one.
    Sentry.setUser({ id: 'u-9', email: 'grace@example.com', username: 'grace' });
    let eventId;
    try {
      chargeCard(900);
    } catch (error) {
      eventId = Sentry.captureException(error);
    }
    Sentry.captureFeedback({ message: 'I was charged twice', name: 'Grace', email: 'grace@example.com', associatedEventId: eventId });
    Sentry.captureFeedback({ message: 'The receipt page is slow' });
    await flush();
    console.log(eventId);
    return;
  }
  if (scenario === 'first-errors') return firstErrors();
  if (scenario === 'secrets') {
    leakSecrets();
    return flush();
  }
  if (scenario === 'checkout-details') {
    failCheckout();
    return flush();
  }
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
