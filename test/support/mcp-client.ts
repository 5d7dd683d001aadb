import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';

const SERVER = join(__dirname, '..', '..', 'node_modules', '@sentry', 'mcp-server', 'dist', 'index.js');

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

  static async start(options: { baseUrl: string; token: string; experimental?: boolean }): Promise<McpClient> {
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
