import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has defaults that need no configuration', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ role: 'all', port: 9000, host: '127.0.0.1', logLevel: 'info' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:9000');
    expect(config.defaultProjectFeatures).toEqual(['servicehooks']);
    expect(config.apiStatementTimeoutMs).toBe(30_000);
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db/x',
      DATA_DIR: '/tmp/fl',
      PUBLIC_URL: 'https://errors.example.com/',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'pretty',
      ROLE: 'worker',
      DEFAULT_PROJECT_FEATURES: 'servicehooks, similarity-indexing',
      API_STATEMENT_TIMEOUT_MS: '5000',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db/x',
      dataDir: '/tmp/fl',
      publicUrl: 'https://errors.example.com',
      logLevel: 'debug',
      logFormat: 'pretty',
      role: 'worker',
      defaultProjectFeatures: ['servicehooks', 'similarity-indexing'],
      apiStatementTimeoutMs: 5000,
    });
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'x' })).toThrow(new ConfigError('PORT must be an integer between 0 and 65535, got "x"'));
    expect(() => loadConfig({ ROLE: 'both' })).toThrow(/ROLE/);
    expect(() => loadConfig({ API_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/API_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(new ConfigError('LOG_FORMAT must be one of json, pretty, got "xml"'));
  });

  it('reads the extension modules to load, in order, and keeps the environment for them', () => {
    expect(loadConfig({}).modules).toEqual([]);
    const config = loadConfig({ FAULTLINE_MODULES: ' ./modules/ticket-tracker, @acme/faultline-dashboard ,', TICKET_TRACKER_URL: 'http://t' });
    expect(config.modules).toEqual(['./modules/ticket-tracker', '@acme/faultline-dashboard']);
    expect(config.environment.TICKET_TRACKER_URL).toBe('http://t');
    expect(() => loadConfig({ FAULTLINE_MODULES: 'a,a' })).toThrow(new ConfigError('FAULTLINE_MODULES lists "a" twice'));
  });

  it('believes forwarded headers from no proxy unless TRUST_PROXY names them', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8 ,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it.each([['true'], ['0'], ['17'], ['10.0.0'], ['10.0.0.0/33'], ['proxy.internal'], ['10.0.0.1;10.0.0.2']])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY/);
  });
});
