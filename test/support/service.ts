import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createTestDatabase } from '@herald/adapters/testing';
import { SERVICE_NODE_FLAGS } from '../../apps/http/scripts/node-flags.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = fileURLToPath(new URL('../../apps/http/scripts/start.mjs', import.meta.url));

export interface TestService {
  url: string;
  apiKey: string;
  databaseUrl: string;
  /** fetch against the service with the API key. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** SIGTERM, wait for exit; the database stays. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  /** Start again on the same database. */
  restart(): Promise<void>;
  output(): string;
  /** Stop and drop the database. */
  dispose(): Promise<void>;
  /** The process id of the running service. */
  readonly pid: number;
  /** Starts another Herald process on this service's database (its dispose leaves the database). */
  startPeer(env?: Record<string, string>): Promise<TestService>;
}

/** Starts Herald as a user would (`pnpm start`: `node <SERVICE_NODE_FLAGS> apps/http/scripts/start.mjs`) on a fresh database. */
export async function startService(
  env: Record<string, string> = {},
  shared?: { db: { url: string; drop(): Promise<void> }; apiKey: string },
): Promise<TestService> {
  const db = shared?.db ?? (await createTestDatabase(inject('adminDatabaseUrl')));
  const apiKey = shared?.apiKey ?? `test_${randomBytes(12).toString('hex')}`;
  let child: ChildProcess;
  let url = '';
  let output = '';

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, START], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, HERALD_API_KEY: apiKey, LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match && !url) {
          url = match[1];
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (!url) reject(new Error(`service exited with ${code}:\n${output}`));
      });
    });

  const exited = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
    });

  await launch();
  const service: TestService = {
    get url() {
      return url;
    },
    apiKey,
    databaseUrl: db.url,
    get pid() {
      return child.pid!;
    },
    startPeer: (peerEnv = {}) => startService({ ...env, ...peerEnv }, { db: { url: db.url, drop: async () => undefined }, apiKey }),
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', `ApiKey ${apiKey}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${url}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async stop() {
      child.kill('SIGTERM');
      return exited();
    },
    async kill() {
      child.kill('SIGKILL');
      await exited();
    },
    async restart() {
      url = '';
      output = '';
      await launch();
    },
    output: () => output,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) await service.stop();
      await db.drop();
    },
  };
  return service;
}
