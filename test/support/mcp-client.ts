import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The newest `@sentry/mcp-server` this suite is pinned to. It declares `engines` node >=22.13 but
 * runs on Node 20, so it is no devDependency (installing it would warn EBADENGINE): the test
 * installs it once into a cache directory outside node_modules and reuses it from there.
 */
export const MCP_SERVER_VERSION = '0.39.0';
const CACHE = join(__dirname, '..', '..', '.test-build', `mcp-server-${MCP_SERVER_VERSION}`);
const SERVER = join(CACHE, 'node_modules', '@sentry', 'mcp-server', 'dist', 'index.js');

function installedVersion(): string | undefined {
  const manifest = join(CACHE, 'node_modules', '@sentry', 'mcp-server', 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

/** Installs the pinned server into its cache directory unless it is there; a half-done install never takes the cache's place. */
export async function installMcpServer(): Promise<void> {
  if (installedVersion() === MCP_SERVER_VERSION) return;
  const staging = `${CACHE}.${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await promisify(execFile)(
    npm,
    ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `@sentry/mcp-server@${MCP_SERVER_VERSION}`],
    { timeout: 300_000 },
  );
  await rm(CACHE, { recursive: true, force: true });
  await rename(staging, CACHE);
}

/** What a tool answered: its text, and whether the server flagged it as an error. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * Sentry's own MCP server (`@sentry/mcp-server`) in its own process, started as its README says
 * for a self-hosted Sentry (`--host`, `--access-token`, `--insecure-http`), spoken to over stdio
 * with MCP's JSON-RPC: one request per line, answers matched by id.
 */
export class McpClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, { resolve: (message: any) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private buffer = '';
  private stderr = '';

  private constructor(args: string[]) {
    // No telemetry DSN and no LLM keys: the server talks only to the Sentry it is given.
    const env = { ...process.env };
    for (const name of ['SENTRY_DSN', 'DEFAULT_SENTRY_DSN', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'EMBEDDED_AGENT_PROVIDER', 'SENTRY_ACCESS_TOKEN'])
      delete env[name];
    this.child = spawn(process.execPath, [SERVER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.child.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`the MCP server exited (${code}): ${this.stderr}`));
      this.pending.clear();
    });
  }

  /** Starts the pinned server (see installMcpServer). */
  static async start(options: { baseUrl: string; token: string; experimental?: boolean }): Promise<McpClient> {
    if (installedVersion() !== MCP_SERVER_VERSION) throw new Error(`@sentry/mcp-server ${MCP_SERVER_VERSION} is not installed: call installMcpServer() first`);
    const host = new URL(options.baseUrl).host;
    const client = new McpClient([`--access-token=${options.token}`, `--host=${host}`, '--insecure-http', ...(options.experimental ? ['--experimental'] : [])]);
    await client.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'faultline-e2e', version: '1.0.0' } });
    client.notify('notifications/initialized');
    return client;
  }

  async toolNames(): Promise<string[]> {
    const listed = await this.request('tools/list', {});
    return listed.tools.map((tool: { name: string }) => tool.name);
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const result = await this.request('tools/call', { name, arguments: args });
    const text = (result.content ?? []).map((part: { type: string; text?: string }) => part.text ?? '').join('\n');
    return { text, isError: result.isError === true };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      this.child.kill('SIGTERM');
    });
  }

  private request(method: string, params: unknown): Promise<any> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (message) => (message.error ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`)) : resolve(message.result)),
        reject,
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  private notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let newline = this.buffer.indexOf('\n'); newline >= 0; newline = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      const waiter = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (waiter) {
        this.pending.delete(message.id);
        waiter.resolve(message);
      }
    }
  }
}
