#!/usr/bin/env node
/**
 * The database boundary, checked like the import boundary. In every string and template literal
 * that reads as SQL:
 *   - a context (libs/<ctx>, modules/<m>) names only its own schema, and of another context's
 *     schema only the views that context publishes in `src/contracts/published-views.ts`;
 *     apps (the composition root) own no schema and may name published views only;
 *   - every table the migrations create is named schema-qualified (the search_path stays default);
 *   - SQL appears only in `infrastructure/` (the event store, the embedded PostgreSQL server and
 *     the platform's database adapter are infrastructure libraries as a whole); migrations
 *     and tests (`*.spec.ts`, `*.int-spec.ts`, test/, bench/) are exempt.
 * Usage: node scripts/check-sql-boundaries.cjs [paths...]   (default: apps libs modules)
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..');

/** The schema each context owns, by its directory under libs/ or modules/. */
const LIB_SCHEMAS = {
  alerts: 'alerts',
  'event-store': 'event_store',
  identity: 'identity',
  ingest: 'ingest',
  integrations: 'integrations',
  notifications: 'notifications',
  issues: 'issues',
  projects: 'projects',
  monitors: 'monitors',
  releases: 'releases',
  scim: 'scim',
  webhooks: 'webhooks',
  kernel: null,
  platform: null,
  'embedded-postgres': null,
  backup: null,
};
/** Libraries that are infrastructure as a whole (the platform's database adapter is too). */
const INFRASTRUCTURE_LIBS = new Set(['event-store', 'embedded-postgres', 'backup']);
const moduleSchema = (name) => name.replace(/-/g, '_');

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  if (fs.statSync(dir).isFile()) return [dir];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : /\.(ts|tsx|js|cjs|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every context's schema, and the views each publishes (read from its contract file). */
function loadContracts() {
  const schemas = new Set(Object.values(LIB_SCHEMAS).filter(Boolean));
  const published = new Map();
  const owners = [
    ...Object.entries(LIB_SCHEMAS)
      .filter(([, schema]) => schema)
      .map(([dir, schema]) => [path.join(ROOT, 'libs', dir), schema]),
    ...(fs.existsSync(path.join(ROOT, 'modules')) ? fs.readdirSync(path.join(ROOT, 'modules')) : []).map((dir) => [
      path.join(ROOT, 'modules', dir),
      moduleSchema(dir),
    ]),
  ];
  for (const [dir, schema] of owners) {
    schemas.add(schema);
    const file = path.join(dir, 'src', 'contracts', 'published-views.ts');
    const views = new Set();
    if (fs.existsSync(file)) {
      for (const literal of literalsOf(file)) {
        const name = literal.text.trim();
        if (!/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(name)) continue;
        if (!name.startsWith(`${schema}.`)) throw new Error(`${path.relative(ROOT, file)}: ${name} is not in ${schema}'s schema`);
        views.add(name);
      }
    }
    published.set(schema, views);
  }
  return { schemas, published };
}

/** Table and view names the migrations create: what must always be named with its schema. */
function loadCatalog() {
  const names = new Set();
  const dirs = [path.join(ROOT, 'migrations'), ...listFiles(path.join(ROOT, 'modules')).filter((f) => f.includes(`${path.sep}migrations${path.sep}`))];
  for (const file of dirs.flatMap(listFiles)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|SEQUENCE)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:[a-z_]+\.)?([a-z_][a-z0-9_]*)/gi)) {
      names.add(match[1].toLowerCase());
    }
  }
  return names;
}

/**
 * The text of every string-like literal of a file. A template's substitutions become a neutral
 * placeholder, and a `+` chain of literals is read as one string, so SQL split over parts is seen whole.
 */
function literalsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const textOf = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => ` $0 ${span.literal.text}`).join('');
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = textOf(node.left);
      const right = textOf(node.right);
      if (left === undefined && right === undefined) return undefined;
      return `${left ?? ' $0 '}${right ?? ' $0 '}`;
    }
    return undefined;
  };
  const visit = (node) => {
    const text = textOf(node);
    if (text !== undefined) {
      found.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SQL =
  /\bselect\b[\s\S]*\bfrom\b|\binsert\s+into\b|\bupdate\s+\S+\s+(?:\S+\s+)?set\b|\bdelete\s+from\b|\btruncate\b\s+\S|\bvacuum\b|\bwith\s+\S+\s+as\s*(?:materialized\s*)?\(|\b(?:create|alter|drop)\s+(?:table|view|index|schema|function)\b|\b(?:from|join)\s+"?[a-z_]+"?\s*\.\s*"?[a-z_]|\bjoin\s+[\s\S]*\bon\b|\bon\s+conflict\b|\breturning\b|\bwhere\b[^'"`]*\$\d/i;
const QUALIFIED = /(?<![\w$."])("?)([a-z_][a-z0-9_$]*)\1\s*\.\s*("?)([a-z_][a-z0-9_$]*)\3/gi;
/** A relation named as text, resolved at run time: `nextval('x')`, `pg_get_serial_sequence('x', …)`, `'x'::regclass`. */
const RELATION_TEXT = /\b(?:nextval|currval|setval|pg_get_serial_sequence|to_regclass)\s*\(\s*'([a-z_][a-z0-9_]*)'|'([a-z_][a-z0-9_]*)'\s*::\s*regclass/gi;
const RELATION_POSITION = /\b(?:from|join|into|update|table|truncate|only|vacuum(?:\s*\([^)]*\))?|analyze|lateral)\s+("?)([a-z_][a-z0-9_]*)\1(?!\s*\.|\s*\()/gi;

/** Where a file sits: the schema it owns, whether it is the composition root, whether SQL may live there. */
function placeOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  const exempt = /(^|\/)(migrations|test|bench)\//.test(rel.replace(/^test\/fixtures\/[^/]+\//, '')) || /\.(int-)?spec\.ts$/.test(rel);
  const context = rel.match(/(?:^|\/)(libs|modules)\/([^/]+)\/src\/(.*)$/);
  if (context) {
    const [, kind, dir, inner] = context;
    const schema = kind === 'libs' ? (LIB_SCHEMAS[dir] ?? dir.replace(/-/g, '_')) : moduleSchema(dir);
    const sqlAllowed =
      /(^|\/)infrastructure\//.test(inner) || (kind === 'libs' && (INFRASTRUCTURE_LIBS.has(dir) || (dir === 'platform' && inner.startsWith('database/'))));
    return { rel, owner: `${kind}/${dir}`, schema, sqlAllowed, exempt };
  }
  const app = rel.match(/(?:^|\/)apps\/([^/]+)\/(.*)$/);
  if (app) return { rel, owner: `apps/${app[1]}`, schema: null, sqlAllowed: /(^|\/)infrastructure\//.test(app[2]), exempt };
  return { rel, owner: rel, schema: null, sqlAllowed: true, exempt: true };
}

function check(paths) {
  const { schemas, published } = loadContracts();
  const catalog = loadCatalog();
  const problems = [];
  for (const file of paths.flatMap((p) => listFiles(path.resolve(ROOT, p)))) {
    const place = placeOf(file);
    if (place.exempt || file.endsWith('.cjs') || file.endsWith('.mjs')) continue;
    for (const { text, line } of literalsOf(file)) {
      const sql = SQL.test(text);
      const at = `${place.rel}:${line}`;
      if (sql && !place.sqlAllowed) problems.push(`${at}: SQL outside infrastructure/ (move it into a repository or query of ${place.owner}'s infrastructure)`);
      for (const match of text.matchAll(QUALIFIED)) {
        const schema = match[2].toLowerCase();
        const name = `${schema}.${match[4].toLowerCase()}`;
        // Outside SQL text a name counts when it is a table or view: one kept in a constant and spliced in later.
        if (!schemas.has(schema) || schema === place.schema || (!sql && !catalog.has(match[4]))) continue;
        if (published.get(schema)?.has(name)) continue;
        problems.push(
          `${at}: ${place.owner} names ${name}, which ${schema} does not publish (read it through ${schema}'s index.ts or a view in its contracts/published-views.ts)`,
        );
      }
      if (/\bsearch_path\b/i.test(text)) problems.push(`${at}: changes the search path, which stays the default so that every name says its schema`);
      if (!sql) continue;
      for (const match of text.matchAll(RELATION_POSITION)) {
        const name = match[2].toLowerCase();
        if (catalog.has(name)) problems.push(`${at}: ${name} is named without its schema`);
      }
      for (const match of text.matchAll(RELATION_TEXT)) {
        const name = (match[1] ?? match[2]).toLowerCase();
        if (catalog.has(name)) problems.push(`${at}: ${name} is named without its schema`);
      }
    }
  }
  return problems;
}

if (require.main === module) {
  const problems = check(process.argv.slice(2).length ? process.argv.slice(2) : ['apps', 'libs', 'modules']);
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(`\n${problems.length} SQL boundary problem(s)`);
    process.exit(1);
  }
}

module.exports = { check };
