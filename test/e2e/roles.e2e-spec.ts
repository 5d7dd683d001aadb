import { startTestApp, type TestApp } from '../support/test-app';

describe('ROLE=worker', () => {
  let worker: TestApp;

  beforeAll(async () => {
    worker = await startTestApp({ ROLE: 'worker' });
  });

  afterAll(async () => {
    await worker?.close();
  });

  it('serves health and metrics but not the API', async () => {
    expect((await worker.request('GET', '/health/ready', { token: null })).status).toBe(200);
    expect((await worker.request('GET', '/metrics', { token: null })).status).toBe(200);
    const api = await worker.request('GET', '/api/0/organizations/');
    expect(api.status).toBe(404);
    expect(api.body.detail).toContain('ROLE=worker');
  });
});
