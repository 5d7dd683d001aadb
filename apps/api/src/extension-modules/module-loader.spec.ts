import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@faultline/platform';
import { loadModules, ModuleLoadError } from './module-loader';

describe('loadModules', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-modules-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write(
      'plain/index.js',
      `class PlainModule {}\nclass Plain1763900009000 { async up() {} async down() {} }\nexports.PlainModule = PlainModule;\nexports.faultlineModule = { name: 'plain', module: PlainModule, migrations: [Plain1763900009000] };`,
    );
    write(
      'factory/src/index.js',
      `exports.faultlineModule = { name: 'factory', module: ({ config }) => ({ module: class FactoryModule {}, providers: [{ provide: 'url', useValue: config.environment.FACTORY_URL }] }) };`,
    );
    write('throws/index.js', `exports.faultlineModule = { name: 'throws', module: () => { throw new Error('THROWS_URL is required'); } };`);
    write('broken/index.js', `throw new Error('boom at import');`);
    write('nothing/index.js', `exports.somethingElse = 1;`);
    write('badname/index.js', `exports.faultlineModule = { name: 'Bad Name', module: class {} };`);
    write('twin/index.js', `exports.faultlineModule = { name: 'plain', module: class TwinModule {} };`);
    write('badmigration/index.js', `exports.faultlineModule = { name: 'badmigration', module: class M {}, migrations: [class NoTimestamp {}] };`);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const load = (modules: string, env: Record<string, string> = {}) => loadModules(loadConfig({ FAULTLINE_MODULES: modules, ...env }), { cwd: dir });

  it('loads nothing when no module is configured', () => {
    expect(loadModules(loadConfig({}))).toEqual([]);
  });

  it('loads modules by path, in order, with their migrations; a folder may keep its index under src/', () => {
    const loaded = load('./plain, ./factory', { FACTORY_URL: 'http://tracker' });
    expect(loaded.map(({ name, spec }) => ({ name, spec }))).toEqual([
      { name: 'plain', spec: './plain' },
      { name: 'factory', spec: './factory' },
    ]);
    expect(loaded[0].migrations.map((migration) => migration.name)).toEqual(['Plain1763900009000']);
    expect((loaded[0].nestModule as { name: string }).name).toBe('PlainModule');
    // The factory got the configuration, environment included.
    expect((loaded[1].nestModule as { providers: Array<{ useValue: string }> }).providers[0].useValue).toBe('http://tracker');
  });

  it('loads an absolute path', () => {
    expect(load(join(dir, 'plain'))[0].name).toBe('plain');
  });

  it.each([
    ['./missing', /"\.\/missing" \(FAULTLINE_MODULES\) failed to load: not found/],
    ['no-such-package-faultline-test', /"no-such-package-faultline-test" \(FAULTLINE_MODULES\) failed to load: not found/],
    ['./broken', /"\.\/broken" .*failed to load: loading .* threw: boom at import/],
    ['./nothing', /"\.\/nothing" .*failed to load: it exports no `faultlineModule`/],
    ['./badname', /"\.\/badname" .*name must be lower-case letters/],
    ['./throws', /"\.\/throws" .*failed to load: THROWS_URL is required/],
    ['./plain,./twin', /"\.\/twin" .*its name "plain" is taken by "\.\/plain"/],
    ['./badmigration', /"\.\/badmigration" .*13-digit timestamp/],
  ])('stops the start with a message naming the module: %s', (modules, message) => {
    expect(() => load(modules)).toThrow(ModuleLoadError);
    expect(() => load(modules)).toThrow(message);
  });

  it('refuses a module migration that takes the name of a core one', () => {
    class Plain1763900009000 {
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    }
    expect(() => loadModules(loadConfig({ FAULTLINE_MODULES: './plain' }), { cwd: dir, coreMigrations: [Plain1763900009000] })).toThrow(
      /migration Plain1763900009000 is defined twice/,
    );
  });
});
