import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Clock } from '@faultline/kernel';
import { loadConfig } from '@faultline/platform';
import { createApp } from '../../apps/api/src/create-app';
import { createMigratedTestDatabaseUrl, dropTestDatabase } from './test-database';

export const BOOTSTRAP = { token: 'test-bootstrap-token', org: 'acme', project: 'web', email: 'admin@acme.test', password: 'test-bootstrap-password' };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  readonly app: NestFastifyApplication;
  readonly baseUrl: string;
  /** The PostgreSQL database of this app. */
  readonly databaseUrl: string;
  request<T = any>(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** Stops the service and starts it again on the same database. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Boots the real application over HTTP on its own fresh database on the server of DATABASE_URL
 * (see test-database.ts). `options.clock`
 * replaces the application's clock (a FixedClock the test advances), across restarts too.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<TestApp> {
  const databaseUrl = await createMigratedTestDatabaseUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'faultline-e2e-'));
  // A test that must know the port before the start (PUBLIC_URL names it) chooses it with freePort().
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_TOKEN: BOOTSTRAP.token,
    BOOTSTRAP_ORG: BOOTSTRAP.org,
    BOOTSTRAP_PROJECT: BOOTSTRAP.project,
    BOOTSTRAP_EMAIL: BOOTSTRAP.email,
    BOOTSTRAP_PASSWORD: BOOTSTRAP.password,
    DATABASE_URL: databaseUrl,
    ...env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const start = async () => {
    const app = await createApp(config, { clock: options.clock });
    await app.listen(port, '127.0.0.1');
    return app;
  };
  let app = await start();

  return {
    get app() {
      return app;
    },
    baseUrl,
    databaseUrl,
    async request(method, path, options = {}) {
      const token = options.token === undefined ? BOOTSTRAP.token : options.token;
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed as never, headers: response.headers };
    },
    async restart() {
      await app.close();
      app = await start();
    },
    async close() {
      await app.close();
      await dropTestDatabase(databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
