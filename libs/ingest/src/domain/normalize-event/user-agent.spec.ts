import { PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import { prepareEvent } from '../prepare-event';
import { dataScrubber } from '../scrub-event';
import { normalize } from './normalize-event.fixtures';
import { MAX_PARSED_USER_AGENT } from './user-agent';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

const browserEvent = (userAgent: string, extra: Record<string, unknown> = {}) => ({
  platform: 'javascript',
  request: { url: 'https://shop.example/cart', headers: { 'User-Agent': userAgent } },
  ...extra,
});

describe('the User-Agent header', () => {
  it('fills the browser, os and device contexts and their tags, as Relay and Sentry do', () => {
    const event = normalize(browserEvent(SAFARI_IPHONE));
    expect(event.contexts).toEqual({
      browser: { type: 'browser', name: 'Mobile Safari', version: '17.1' },
      os: { type: 'os', name: 'iOS', version: '17.1' },
      device: { type: 'device', family: 'iPhone', model: 'iPhone', brand: 'Apple' },
    });
    expect(event.tags).toEqual([
      ['browser', 'Mobile Safari 17.1'],
      ['browser.name', 'Mobile Safari'],
      ['os', 'iOS 17.1'],
      ['os.name', 'iOS'],
      ['device', 'iPhone'],
      ['device.family', 'iPhone'],
    ]);
    // A desktop names no device.
    expect(normalize(browserEvent(CHROME_WINDOWS)).tags).toEqual([
      ['browser', 'Chrome 120.0.0.0'],
      ['browser.name', 'Chrome'],
      ['os', 'Windows 10'],
      ['os.name', 'Windows'],
    ]);
  });

  it("keeps the contexts and tags the SDK sent; a server's os leaves the browser's as client_os", () => {
    const event = normalize(
      browserEvent(CHROME_WINDOWS, { tags: { 'browser.name': 'Edge' }, contexts: { browser: { name: 'Edge', version: '1' }, os: { name: 'Linux' } } }),
    );
    expect(event.contexts).toEqual({
      browser: { name: 'Edge', version: '1' },
      os: { name: 'Linux' },
      client_os: { type: 'os', name: 'Windows', version: '10' },
    });
    expect(event.tags).toEqual([
      ['browser.name', 'Edge'],
      ['browser', 'Edge 1'],
      ['os', 'Linux'],
      ['os.name', 'Linux'],
      ['client_os', 'Windows 10'],
      ['client_os.name', 'Windows'],
    ]);
  });

  it('reads only the start of a long header, and nothing of an unknown one', () => {
    const long = `${CHROME_WINDOWS}${' x'.repeat(50_000)}`;
    expect(normalize(browserEvent(long)).contexts).toEqual(normalize(browserEvent(CHROME_WINDOWS)).contexts);
    expect(long.length).toBeGreaterThan(MAX_PARSED_USER_AGENT);
    expect(normalize(browserEvent('curl-ish/1')).contexts).toBeUndefined();
    expect(normalize(browserEvent('')).tags).toEqual([]);
  });
});

describe('an unhandled event', () => {
  const prepare = (raw: Record<string, unknown>) => prepareEvent(normalize(raw), dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS));
  const exception = (handled?: boolean) => ({ type: 'Error', value: 'x', ...(handled === undefined ? {} : { mechanism: { type: 'generic', handled } }) });

  it("is one with any exception whose mechanism says handled: false (Sentry's rule)", () => {
    expect(prepare({ exception: { values: [exception(true), exception(false)] } }).unhandled).toBe(true);
    expect(prepare({ exception: { values: [exception(false), exception(true)] } }).unhandled).toBe(true);
    expect(prepare({ exception: { values: [exception(true)] } }).unhandled).toBe(false);
    expect(prepare({ exception: { values: [exception()] } }).unhandled).toBe(false);
    expect(prepare({ message: 'hello' }).unhandled).toBe(false);
  });

  it('counts the tags it shows (handled, mechanism, url, server_name) under its issue', () => {
    const prepared = prepare({ server_name: 'web-1', request: { url: `https://x.example/${'a'.repeat(300)}` }, exception: { values: [exception(false)] } });
    expect(prepared.issueTags).toEqual(
      expect.arrayContaining([
        ['handled', 'no'],
        ['mechanism', 'generic'],
        ['server_name', 'web-1'],
        ['url', `https://x.example/${'a'.repeat(300)}`.slice(0, 200)],
      ]),
    );
  });
});
