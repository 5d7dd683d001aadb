import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/**
 * The pages of the web interface, at Sentry's URLs. Each answers the same HTML shell; the
 * interface's script routes by path (history fallback). Everything under /api/, /health, /metrics
 * and the SDK endpoints stays with the API.
 */
export const WEB_ROUTES = [
  '/',
  '/auth/*',
  '/accept/*',
  '/accept-transfer/',
  '/settings',
  '/settings/*',
  '/organizations',
  '/organizations/*',
  '/manage',
  '/manage/*',
] as const;

/** Only our own scripts and styles, no framing, no referrer to other sites. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-cache',
};

/** The repository (or installed package) root: the nearest directory above this file with a package.json. */
export function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/** Where `npm run build` (scripts/build-web.cjs) puts the bundle: dist/web/index.html and dist/web/assets/. */
export function webAssetsDirectory(): string {
  return join(packageRoot(__dirname), 'dist', 'web');
}

/** Serves the built interface: hashed assets cached for good, and the HTML shell for every page route. */
export function serveWebInterface(app: NestFastifyApplication, directory = webAssetsDirectory()): void {
  const indexFile = join(directory, 'index.html');
  const built = existsSync(indexFile);
  const html = built ? readFileSync(indexFile, 'utf8') : undefined;
  if (built) {
    app.useStaticAssets({
      root: join(directory, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
      preCompressed: true,
    });
  }
  const fastify = app.getHttpAdapter().getInstance();
  const page = async (_request: unknown, reply: FastifyReply) => {
    if (html === undefined) {
      return reply.status(503).type('text/plain; charset=utf-8').send('The web interface is not built: run `npm run build` (it runs before `npm start`).\n');
    }
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  };
  for (const url of WEB_ROUTES) fastify.get(url, page);
  // Browsers ask for /favicon.ico whatever the page links; both answer the one SVG icon.
  const faviconFile = join(directory, 'favicon.svg');
  const favicon = existsSync(faviconFile) ? readFileSync(faviconFile) : undefined;
  const icon = async (_request: unknown, reply: FastifyReply) => {
    if (!favicon) return reply.status(404).send({ detail: 'The web interface is not built.' });
    return reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(favicon);
  };
  fastify.get('/favicon.svg', icon);
  fastify.get('/favicon.ico', icon);
}
