import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import type { SchemaContainer } from '@prisma/schema-engine-wasm';

import { UsageError } from './options.js';

export async function readSchemaFiles(schemaPath: string): Promise<SchemaContainer[]> {
  const info = await stat(schemaPath).catch(() => undefined);
  if (!info) throw new UsageError(`Prisma schema not found: ${schemaPath}`);
  const paths: string[] = [];
  if (info.isDirectory()) {
    // Multi-file schema: every *.prisma file below the folder.
    const entries = await readdir(schemaPath, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.prisma')) {
        // `parentPath` is Node >= 20.12; `path` is the older (deprecated) name of the same thing.
        const dir = (entry as { parentPath?: string }).parentPath ?? (entry as unknown as { path: string }).path;
        paths.push(path.join(dir, entry.name));
      }
    }
    if (paths.length === 0) throw new UsageError(`No .prisma files in ${schemaPath}`);
  } else {
    paths.push(schemaPath);
  }
  paths.sort();
  return Promise.all(paths.map(async (p) => ({ path: p, content: await readFile(p, 'utf8') })));
}

export interface Migration {
  name: string;
  sql: string;
}

/** Migration folders in Prisma's order (by folder name), each with its migration.sql. */
export async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  if (!existsSync(migrationsDir)) return [];
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    const file = path.join(migrationsDir, name, 'migration.sql');
    if (!existsSync(file)) throw new UsageError(`Migration folder without migration.sql: ${path.join(migrationsDir, name)}`);
    migrations.push({ name, sql: await readFile(file, 'utf8') });
  }
  return migrations;
}
