// A real application using the official @sentry/node SDK that attaches files to its errors.
// Usage: node sentry-attachments-client.cjs <dsn> <scenario>; prints the event id it reported.
const Sentry = require('@sentry/node');

const [dsn, scenario] = process.argv.slice(2);
Sentry.init({ dsn, defaultIntegrations: false, tracesSampleRate: 0 });

/** `count` bytes cycling through every byte value, so any change of encoding on the way shows. */
function allByteValues(count) {
  return Uint8Array.from({ length: count }, (_, i) => (i * 7 + (i >> 8)) % 256);
}

const scenarios = {
  // Every byte value, several times over, and a text file beside it.
  'all-bytes': [
    { filename: 'core.bin', data: allByteValues(4096), contentType: 'application/octet-stream' },
    { filename: 'notes.txt', data: 'cart had 3 items\n' },
  ],
  // Two files that together pass the organization's quota of 1 MiB: the second is dropped.
  'over-quota': [
    { filename: 'first.bin', data: allByteValues(600 * 1024) },
    { filename: 'second.bin', data: allByteValues(600 * 1024) },
  ],
};

async function main() {
  let eventId;
  Sentry.withScope((scope) => {
    for (const attachment of scenarios[scenario]) scope.addAttachment(attachment);
    eventId = Sentry.captureException(new Error(`Attachments ${scenario}`));
  });
  if (!(await Sentry.flush(10000))) {
    console.error('flush timed out');
    process.exit(2);
  }
  process.stdout.write(eventId);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
