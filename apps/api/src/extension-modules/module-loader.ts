import { existsSync } from 'node:fs';
import NodeModule from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import { type AppConfig, type FaultlineModule, faultlineModuleProblem, type MigrationClass } from '@faultline/platform';

/** Stops the start: names the module as configured and says what went wrong. */
export class ModuleLoadError extends Error {
  constructor(
    readonly moduleSpec: string,
    reason: string,
  ) {
    super(`Extension module "${moduleSpec}" (FAULTLINE_MODULES) failed to load: ${reason}`);
    this.name = 'ModuleLoadError';
  }
}

export interface LoadedModule {
  /** As listed in FAULTLINE_MODULES. */
  readonly spec: string;
  readonly name: string;
  readonly nestModule: Type<unknown> | DynamicModule;
  readonly migrations: readonly MigrationClass[];
}

export interface ModuleLoaderOptions {
  /** Paths in FAULTLINE_MODULES are relative to this; default the working directory. */
  readonly cwd?: string;
  /** The application's own migrations, so a module's cannot take one of their names. */
  readonly coreMigrations?: readonly MigrationClass[];
}

/**
 * Loads the modules listed in the configuration, in order. Everything that can be checked before
 * Nest builds the application is checked here, so a broken module stops the start with its name
 * in the message rather than somewhere inside dependency injection.
 */
export function loadModules(config: AppConfig, options: ModuleLoaderOptions = {}): LoadedModule[] {
  if (config.modules.length === 0) return [];
  shareHostContexts();
  const cwd = options.cwd ?? process.cwd();
  const migrationNames = new Set((options.coreMigrations ?? []).map((migration) => migration.name));
  const names = new Map<string, string>();
  return config.modules.map((spec) => {
    const definition = definitionOf(spec, requireModule(spec, cwd));
    const previous = names.get(definition.name);
    if (previous) throw new ModuleLoadError(spec, `its name "${definition.name}" is taken by "${previous}"`);
    names.set(definition.name, spec);
    const migrations = [...(definition.migrations ?? [])];
    for (const migration of migrations) {
      if (migrationNames.has(migration.name)) throw new ModuleLoadError(spec, `migration ${migration.name} is defined twice`);
      migrationNames.add(migration.name);
    }
    return { spec, name: definition.name, nestModule: build(spec, definition, config), migrations };
  });
}

function requireModule(spec: string, cwd: string): unknown {
  const candidates = isPath(spec) ? pathCandidates(resolve(cwd, spec)) : [spec];
  let resolved: string | undefined;
  for (const candidate of candidates) {
    try {
      resolved = require.resolve(candidate);
      break;
    } catch {
      // try the next place
    }
  }
  if (!resolved) throw new ModuleLoadError(spec, `not found (looked for ${candidates.join(', ')})`);
  try {
    // A module named in configuration is only known at run time; the synchronous require also
    // lets the tests load TypeScript sources through Jest.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(resolved);
  } catch (error) {
    throw new ModuleLoadError(spec, `loading ${resolved} threw: ${describe(error)}`);
  }
}

function definitionOf(spec: string, exports: unknown): FaultlineModule {
  const exported = exports as { faultlineModule?: unknown; default?: unknown } | null;
  const definition = exported?.faultlineModule ?? exported?.default;
  if (definition === undefined) throw new ModuleLoadError(spec, 'it exports no `faultlineModule`');
  const problem = faultlineModuleProblem(definition);
  if (problem) throw new ModuleLoadError(spec, problem);
  return definition as FaultlineModule;
}

function build(spec: string, definition: FaultlineModule, config: AppConfig): Type<unknown> | DynamicModule {
  const { module } = definition;
  if (typeof module !== 'function' || isClass(module)) return module as Type<unknown> | DynamicModule;
  try {
    const built = (module as (context: { config: AppConfig }) => Type<unknown> | DynamicModule)({ config });
    if (typeof built !== 'function' && (typeof built !== 'object' || built === null)) {
      throw new TypeError('its factory returned no Nest module');
    }
    return built;
  } catch (error) {
    throw new ModuleLoadError(spec, describe(error));
  }
}

/** Package names resolve from the application; anything that looks like a path, from `cwd`. */
function isPath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('/') || /^[A-Za-z]:[\\/]/.test(spec);
}

/**
 * A folder may hold an index or a `src/index`. A compiled application (under `dist/`) also looks
 * for the compiled copy of a folder of the project, so `./modules/ticket-tracker` means the same
 * module from the sources (tests) and from the build (`npm start`).
 */
function pathCandidates(path: string): string[] {
  const places = [path, join(path, 'src')];
  const build = buildLayout();
  if (build && !relative(build.projectRoot, path).startsWith('..') && relative(build.distRoot, path).startsWith('..')) {
    const mirrored = join(build.distRoot, relative(build.projectRoot, path));
    places.push(mirrored, join(mirrored, 'src'));
  }
  return places;
}

/** Where the build is, when this file runs compiled (dist/apps/api/src/extension-modules/). */
function buildLayout(): { distRoot: string; projectRoot: string } | undefined {
  if (!__filename.endsWith('.js')) return undefined;
  const distRoot = resolve(__dirname, '..', '..', '..', '..');
  return basename(distRoot) === 'dist' ? { distRoot, projectRoot: dirname(distRoot) } : undefined;
}

let sharing = false;

/**
 * A module installed as a package imports `@faultline/<context>`; it must get this application's
 * copy, because Nest finds providers by class identity (a second copy of the platform would hold
 * a second `Database` class that nothing provides). The sources map the alias through the
 * TypeScript paths; the build maps it here, to the compiled contexts next to this file.
 */
function shareHostContexts(): void {
  const build = buildLayout();
  if (!build || sharing) return;
  sharing = true;
  const loader = NodeModule as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    const context = /^@faultline\/([a-z][a-z0-9-]*)$/.exec(request)?.[1];
    const target = context && join(build.distRoot, 'libs', context, 'src', 'index.js');
    if (target && existsSync(target)) return target;
    return resolveFilename.call(this, request, ...rest);
  };
}

function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
