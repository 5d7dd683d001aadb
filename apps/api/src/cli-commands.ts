import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes, isNumericId, systemClock } from '@faultline/kernel';
import {
  CreateApiTokenCommand,
  type CreatedApiToken,
  CreateOrganizationCommand,
  CreateTeamCommand,
  CreateUserCommand,
  FindOrganizationQuery,
  FindUserQuery,
  generatePassword,
  type OrganizationSummary,
  SetUserPasswordCommand,
  UpdateOrganizationCommand,
  type UserSummary,
} from '@faultline/identity';
import { openEmbeddedDatabase, runningServerUrl } from '@faultline/embedded-postgres';
import { type DeadLetter, type DeadLetterScope, DeleteDeadLettersCommand, ListDeadLettersQuery, RetryDeadLettersCommand } from '@faultline/ingest';
import { createDataSource, dataSourceOptionsFrom, loadConfig, recordedPublicUrl, runMigrations } from '@faultline/platform';
import { CreateProjectCommand, FindProjectKeysQuery, FindProjectQuery, type ProjectKeySummary, type ProjectSummary } from '@faultline/projects';
import { MIGRATIONS } from '../../../migrations';
import { backupCommand, checkBackupCommand, restoreCommand } from './backup-commands';
import { AppModule, applicationMigrations } from './app.module';
import { loadModules } from './extension-modules/module-loader';

export const HELP = `Usage: npm run cli -- <command> [options]

Administration of a Faultline instance, on the database the environment names:
DATABASE_URL, or the embedded database in DATA_DIR (the running service's server,
or, when no service runs, one started for the command).

Commands:
  migrate                                   apply pending database migrations
  database-url                              print the connection string of the running
                                            service's embedded PostgreSQL (for pg_dump, psql)
  backup FILE                               a consistent backup of the whole database into
                                            FILE, taken while the service runs
  check-backup FILE                         check that FILE is whole and restorable here
  restore FILE                              check FILE whole, then restore it into an empty
                                            DATA_DIR (or the empty database of DATABASE_URL)
  create-user    --email E [--name N] [--superuser]
  create-org     --name N [--slug S] --owner EMAIL
  create-team    --org O --name N [--slug S]
  create-project --org O --team T --name N [--slug S] [--platform P]
  create-token   --email E [--scopes a,b] [--name N]   a user token (default: every scope)
  create-token   --org O --scopes a,b [--name N]       an organization token
  dsn            --org O --project P        print the project's DSNs
  set-plan       --org O --plan free|team|business|enterprise
  set-password   --email E                  set a user's web sign-in password: read from the
                                            FAULTLINE_PASSWORD variable, or generated and printed
  dead-letters list   [--org O [--project P]]              accepted events processing set aside,
                                                           newest first, with why
  dead-letters retry  (--id N | --all) [--org O [--project P]]   back to the queue, to be processed
  dead-letters delete (--id N | --all) [--org O [--project P]]   delete for good

Options:
  -h, --help     show this help
`;

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export class UsageError extends Error {}

/** The backup file named on the command line (a relative path is the working directory's: Faultline's, under `npm run`). */
function fileArgument(positionals: string[]): string {
  const [command, file, ...rest] = positionals;
  if (!file || rest.length) throw new UsageError(`${command} takes one argument: the backup file`);
  return resolve(file);
}

type Env = NodeJS.ProcessEnv;

async function withApp<T>(env: Env, work: (commands: CommandBus, queries: QueryBus) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...env, ROLE: 'api', LOG_LEVEL: env.LOG_LEVEL ?? 'warn' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, { bootstrap: false }), { logger: ['error', 'warn'] });
  try {
    return await work(app.get(CommandBus), app.get(QueryBus));
  } finally {
    await app.close();
  }
}

async function userId(queries: QueryBus, email: string): Promise<string> {
  const user = await queries.execute<FindUserQuery, UserSummary | null>(new FindUserQuery({ email }));
  if (!user) throw new UsageError(`no user with e-mail ${email}`);
  return user.id;
}

async function organizationId(queries: QueryBus, slug: string): Promise<string> {
  const org = await queries.execute<FindOrganizationQuery, OrganizationSummary | null>(new FindOrganizationQuery(slug));
  if (!org) throw new UsageError(`no organization ${slug}`);
  return org.id;
}

/** The dead letters the options name: the instance's, an organization's, or a project's. */
async function deadLetterScope(options: Options, queries: QueryBus, selection: 'list' | 'change'): Promise<DeadLetterScope> {
  let ids: string[] | undefined;
  if (selection === 'change') {
    if ((options.all === true) === (options.id !== undefined)) throw new UsageError('give either --id N or --all');
    if (options.id !== undefined) {
      if (!isNumericId(String(options.id))) throw new UsageError(`no dead letter ${options.id}`);
      ids = [String(options.id)];
    }
  }
  if (!options.org) {
    if (options.project) throw new UsageError('--project needs --org');
    return { ids };
  }
  const organizationIdOf = await organizationId(queries, required(options, 'org'));
  if (!options.project) return { organizationId: organizationIdOf, ids };
  const project = await queries.execute<FindProjectQuery, ProjectSummary | null>(new FindProjectQuery(organizationIdOf, required(options, 'project')));
  if (!project) throw new UsageError(`no project ${options.project} in ${options.org}`);
  return { projectId: project.id, ids };
}

const scopesOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...ALL_SCOPES];

async function run(positionals: string[], options: Options, env: Env, print: (line: string) => void): Promise<void> {
  const command = positionals[0];
  switch (command) {
    case 'migrate': {
      const config = loadConfig(env);
      const migrations = applicationMigrations(loadModules(config, { coreMigrations: MIGRATIONS }));
      const dataSource = await createDataSource(dataSourceOptionsFrom(config, config.databaseUrl!, migrations));
      await dataSource.initialize();
      try {
        const applied = await runMigrations(dataSource);
        print(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      } finally {
        await dataSource.destroy();
      }
      return;
    }
    case 'create-user':
      return withApp(env, async (commands) => {
        const user = await commands.execute<CreateUserCommand, { id: string }>(
          new CreateUserCommand(required(options, 'email'), (options.name as string) ?? '', options.superuser === true),
        );
        print(`Created user ${user.id}`);
      });
    case 'create-org':
      return withApp(env, async (commands, queries) => {
        const owner = await userId(queries, required(options, 'owner'));
        const org = await commands.execute<CreateOrganizationCommand, { id: string; slug: string }>(
          new CreateOrganizationCommand(required(options, 'name'), options.slug as string | undefined, owner),
        );
        print(`Created organization ${org.slug} (id ${org.id})`);
      });
    case 'create-team':
      return withApp(env, async (commands, queries) => {
        const org = await organizationId(queries, required(options, 'org'));
        const teamId = await commands.execute<CreateTeamCommand, string>(
          new CreateTeamCommand(org, required(options, 'name'), options.slug as string | undefined),
        );
        print(`Created team ${teamId}`);
      });
    case 'create-project':
      return withApp(env, async (commands, queries) => {
        const org = required(options, 'org');
        const projectId = await commands.execute<CreateProjectCommand, string>(
          new CreateProjectCommand(
            await organizationId(queries, org),
            required(options, 'team'),
            required(options, 'name'),
            options.slug as string | undefined,
            (options.platform as string) ?? null,
          ),
        );
        const keys = await queries.execute<FindProjectKeysQuery, ProjectKeySummary[] | null>(new FindProjectKeysQuery(org, projectId));
        print(`Created project ${projectId}\nDSN: ${keys?.[0]?.dsn}`);
      });
    case 'create-token':
      return withApp(env, async (commands, queries) => {
        const owner = options.org
          ? { kind: 'organization' as const, owner: { organizationId: await organizationId(queries, required(options, 'org')) } }
          : { kind: 'user' as const, owner: { userId: await userId(queries, required(options, 'email')) } };
        const created = await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
          new CreateApiTokenCommand(owner.kind, owner.owner, (options.name as string) ?? 'CLI token', scopesOf(options.scopes), expandScopes(ALL_SCOPES)),
        );
        print(created.plaintext);
      });
    case 'dsn':
      return withApp(env, async (_commands, queries) => {
        const keys = await queries.execute<FindProjectKeysQuery, ProjectKeySummary[] | null>(
          new FindProjectKeysQuery(required(options, 'org'), required(options, 'project')),
        );
        if (!keys) throw new UsageError('no such project');
        for (const key of keys) print(key.dsn);
      });
    case 'set-plan':
      return withApp(env, async (commands, queries) => {
        const org = await organizationId(queries, required(options, 'org'));
        await commands.execute(new UpdateOrganizationCommand(org, { plan: required(options, 'plan') }, true));
        print(`Plan set to ${options.plan}`);
      });
    case 'set-password':
      return withApp(env, async (commands) => {
        // Not an option: a password on the command line would show in the process list and shell history.
        const chosen = env.FAULTLINE_PASSWORD;
        const password = chosen || generatePassword();
        await commands.execute(new SetUserPasswordCommand(required(options, 'email'), password));
        print(chosen ? `Password set for ${options.email}` : `Password for ${options.email}: ${password}`);
      });
    case 'dead-letters':
      return withApp(env, async (commands, queries) => {
        const action = positionals[1];
        if (action === 'list') {
          const scope = await deadLetterScope(options, queries, 'list');
          const letters = await queries.execute<ListDeadLettersQuery, DeadLetter[]>(new ListDeadLettersQuery(scope, 0, 1000));
          if (letters.length === 0) print('No dead letters.');
          for (const letter of letters) {
            print(
              [
                letter.id,
                letter.dateFailed,
                `project ${letter.projectId} (${letter.projectSlug})`,
                `event ${letter.eventId}`,
                `${letter.attempts} attempt(s)`,
                letter.reason,
              ].join('\t'),
            );
          }
        } else if (action === 'retry') {
          const retried = await commands.execute<RetryDeadLettersCommand, number>(
            new RetryDeadLettersCommand(await deadLetterScope(options, queries, 'change')),
          );
          print(`Moved ${retried} dead letter(s) back to the queue.`);
        } else if (action === 'delete') {
          const deleted = await commands.execute<DeleteDeadLettersCommand, number>(
            new DeleteDeadLettersCommand(await deadLetterScope(options, queries, 'change')),
          );
          print(`Deleted ${deleted} dead letter(s).`);
        } else {
          throw new UsageError('dead-letters takes list, retry or delete');
        }
      });
    case 'database-url':
      print(env.DATABASE_URL ?? '');
      return;
    case 'backup':
      return backupCommand(fileArgument(positionals), env.DATABASE_URL!, systemClock.now(), print);
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

/** Runs one CLI invocation: `args` as typed after `npm run cli --`, output line by line to `print`. */
export async function runCli(args: string[], env: Env, print: (line: string) => void): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      email: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      owner: { type: 'string' },
      org: { type: 'string' },
      team: { type: 'string' },
      project: { type: 'string' },
      platform: { type: 'string' },
      scopes: { type: 'string' },
      plan: { type: 'string' },
      superuser: { type: 'boolean' },
      id: { type: 'string' },
      all: { type: 'boolean' },
    },
  });
  if (values.help || positionals.length === 0) {
    print(HELP);
    return;
  }
  const recorded = env.PUBLIC_URL || env.PORT ? undefined : recordedPublicUrl(loadConfig(env).dataDir);
  if (recorded) env = { ...env, PUBLIC_URL: recorded };
  if (positionals[0] === 'restore' || positionals[0] === 'check-backup') {
    const config = loadConfig(env);
    const migrations = applicationMigrations(loadModules(config, { coreMigrations: MIGRATIONS }));
    const file = fileArgument(positionals);
    return positionals[0] === 'restore' ? restoreCommand(file, config, migrations, print) : checkBackupCommand(file, migrations, print);
  }
  if (positionals[0] === 'backup') fileArgument(positionals);
  if (env.DATABASE_URL) return run(positionals, values, env, print);
  const config = loadConfig(env);
  if (positionals[0] === 'database-url') {
    const url = runningServerUrl(config.dataDir);
    if (!url) throw new UsageError(`no embedded PostgreSQL server runs in ${config.dataDir}: start the service first`);
    print(url);
    return;
  }
  const embedded = await openEmbeddedDatabase(config.dataDir, { poolSize: config.databasePoolSize, shareWithService: true });
  try {
    await run(positionals, values, { ...env, DATABASE_URL: embedded.url }, print);
  } finally {
    await embedded.close();
  }
}
