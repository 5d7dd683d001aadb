import 'reflect-metadata';
import { ConfigError } from '@faultline/platform';
import { HELP, runCli, UsageError } from './cli-commands';

runCli(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`Error: ${(error as Error).message}\n\n${HELP}`);
  } else {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
