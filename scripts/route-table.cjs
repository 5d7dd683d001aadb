// Prints the route -> file table of the "Routes" section of docs/api.md, read from the controllers'
// decorators: `node scripts/route-table.cjs` to see it, `--write` to put it into docs/api.md. A test
// keeps that copy equal to what this prints.
const { readFileSync, writeFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const BEGIN = '<!-- routes:begin (scripts/route-table.cjs --write) -->';
const END = '<!-- routes:end -->';
const ROUTE = /@(Get|Post|Put|Patch|Delete|All)\((?:'([^']*)')?\)/g;
const CONTROLLER = /@Controller\((?:'([^']*)')?\)/g;

function routes() {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'libs', 'modules', 'apps'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.controller.ts'));
  const rows = [];
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    const controllers = [...source.matchAll(CONTROLLER)];
    controllers.forEach((controller, index) => {
      const end = index + 1 < controllers.length ? controllers[index + 1].index : source.length;
      const prefix = controller[1] ?? '';
      for (const route of source.slice(controller.index, end).matchAll(ROUTE)) {
        const path = `/${[prefix, route[2] ?? ''].filter(Boolean).join('/')}/`.replace(/:(\w+)/g, '{$1}').replace(/\/+/g, '/');
        rows.push({ method: route[1].toUpperCase(), path, file });
      }
    });
  }
  rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  return rows;
}

function table() {
  const lines = ['| Method | Path | File |', '|---|---|---|'];
  for (const { method, path, file } of routes()) lines.push(`| ${method} | \`${path}\` | \`${file}\` |`);
  return `${BEGIN}\n${lines.join('\n')}\n${END}`;
}

/** The page that holds the table. */
const PAGE = 'docs/api.md';

function documentedTable(page) {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  return start < 0 || end < 0 ? undefined : page.slice(start, end + END.length);
}

module.exports = { table, documentedTable, PAGE };

if (require.main === module) {
  if (process.argv.includes('--write')) {
    const file = join(root, PAGE);
    const page = readFileSync(file, 'utf8');
    const current = documentedTable(page);
    if (!current) throw new Error(`${PAGE} has no ${BEGIN} … ${END} section`);
    writeFileSync(file, page.replace(current, table()));
  } else {
    process.stdout.write(`${table()}\n`);
  }
}
