// Builds the web interface (apps/web/client, Preact) into dist/web: one minified script and one
// stylesheet with content hashes in their names, and the HTML shell that loads them. `npm run build`
// runs it, so `npm start` and the tests serve a fresh bundle.
const { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const { brotliCompressSync, constants, gzipSync } = require('node:zlib');
const esbuild = require('esbuild');

const root = join(__dirname, '..');
const out = join(root, 'dist', 'web');

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(root, 'apps', 'web', 'client', 'main.tsx')],
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  // Compressed once here, served as they are to browsers that accept them (@fastify/static preCompressed).
  for (const file of outputs.filter((name) => /\.(js|css)$/.test(name))) {
    const path = join(out, 'assets', file);
    const content = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
  copyFileSync(join(root, 'apps', 'web', 'client', 'favicon.svg'), join(out, 'favicon.svg'));
  const script = outputs.find((file) => file.endsWith('.js'));
  const stylesheet = outputs.find((file) => file.endsWith('.css'));
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Faultline</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/${stylesheet}">
<script type="module" src="/assets/${script}"></script>
</head>
<body>
<div id="app"><div class="shell"><header class="topbar"><span class="brand">Faultline</span></header><main class="page" aria-busy="true"></main></div></div>
</body>
</html>
`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
