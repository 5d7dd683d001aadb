import type { DynamicModule, Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config';

export type MigrationClass = new () => MigrationInterface;

/** What a module's factory gets: the application's configuration, including the environment. */
export interface FaultlineModuleContext {
  readonly config: AppConfig;
}

/**
 * An extension module as it presents itself to the loader: the export `faultlineModule` of a
 * package or folder listed in FAULTLINE_MODULES. The Nest module is imported into the application
 * before it starts, so its controllers get the same guard, scopes, tenancy, validation, error
 * format, pagination and OpenAPI document as the built-in ones.
 */
export interface FaultlineModule {
  /** Lower-case letters, digits and dashes; names the module in logs, errors and subscriber names. */
  readonly name: string;
  /**
   * Builds the Nest module. A factory that throws (a missing setting, say) stops the start with
   * a message naming the module.
   */
  readonly module: Type<unknown> | DynamicModule | ((context: FaultlineModuleContext) => Type<unknown> | DynamicModule);
  /**
   * The module's own tables. They run with the application's migrations (each migration once, by
   * class name), so give them timestamps after the core ones and names that start with the module.
   */
  readonly migrations?: readonly MigrationClass[];
}

export const MODULE_NAME_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

/**
 * Checks a module's definition where it is written, so a mistake shows in the module's own tests
 * rather than at the first start.
 */
export function defineFaultlineModule(definition: FaultlineModule): FaultlineModule {
  const problem = faultlineModuleProblem(definition);
  if (problem) throw new TypeError(problem);
  return Object.freeze({ ...definition, migrations: Object.freeze([...(definition.migrations ?? [])]) });
}

/** Why `value` is not a usable module definition, or undefined when it is. */
export function faultlineModuleProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'the definition is not an object';
  const { name, module, migrations } = value as Partial<FaultlineModule>;
  if (typeof name !== 'string' || !MODULE_NAME_PATTERN.test(name)) {
    return `name must be lower-case letters, digits and dashes, got ${JSON.stringify(name)}`;
  }
  if (typeof module !== 'function' && (typeof module !== 'object' || module === null)) {
    return 'module must be a Nest module class, a dynamic module or a function that builds one';
  }
  if (migrations !== undefined) {
    if (!Array.isArray(migrations)) return 'migrations must be an array of migration classes';
    for (const migration of migrations) {
      if (typeof migration !== 'function' || !/\d{13}$/.test(migration.name)) {
        return `every migration must be a class whose name ends with a 13-digit timestamp, got ${String(migration?.name ?? migration)}`;
      }
    }
  }
  return undefined;
}
