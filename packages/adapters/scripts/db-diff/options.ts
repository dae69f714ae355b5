import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The adapters package folder: the default schema and migrations live below it. */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const debugEnabled = Boolean(process.env.DEBUG_DB_DIFF);

/** A mistake in the command line: printed with the usage instead of as a failure. */
export class UsageError extends Error {}

export interface Options {
  name: string | undefined;
  schemaPath: string;
  migrationsDir: string;
  dryRun: boolean;
}

export const USAGE = `Usage: pnpm db:diff <name> [--schema <path>] [--migrations <dir>] [--dry-run]

Writes prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql: the SQL from
"all existing migrations applied" to the Prisma schema.`;

export function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      schema: { type: 'string' },
      migrations: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length > 1) throw new UsageError(`Expected one migration name, got: ${positionals.join(' ')}`);
  const dryRun = values['dry-run'] ?? false;
  let name: string | undefined;
  if (positionals[0] !== undefined) {
    // Same idea as the Prisma CLI: a snake_case slug.
    name = positionals[0]
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 200);
    if (!name) throw new UsageError(`Migration name "${positionals[0]}" has no letters or digits.`);
  } else if (!dryRun) {
    throw new UsageError('Missing migration name.');
  }
  // pnpm --filter runs the script inside packages/adapters; INIT_CWD is where the user typed it.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  return {
    name,
    dryRun,
    schemaPath: values.schema ? path.resolve(cwd, values.schema) : path.join(packageDir, 'prisma', 'schema.prisma'),
    migrationsDir: values.migrations
      ? path.resolve(cwd, values.migrations)
      : path.join(packageDir, 'prisma', 'migrations'),
  };
}
