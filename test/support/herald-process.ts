import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../../apps/http/scripts/node-flags.mjs';

// The one way tests and benchmarks run Herald in a process of its own, as `pnpm start` runs it:
// `node <SERVICE_NODE_FLAGS> apps/http/scripts/start.mjs` from the repository root.
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = 'apps/http/scripts/start.mjs';
const LISTENING = /"url":"(http:\/\/[^"]+)"/;
const WAIT_MS = 60_000;

/**
 * The environment a launched service gets: this process's, on a free loopback port at `info`, with
 * `overrides` on top. An override set to `undefined` removes the variable (`DATABASE_URL: undefined`
 * makes the service start its embedded PostgreSQL).
 */
export function serviceEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...overrides };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

export interface LaunchOptions {
  /** Variables over `serviceEnv`'s defaults. */
  env?: NodeJS.ProcessEnv;
  /** More Node flags, after the service's own (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** `inherit` shows the service's stderr on this process's instead of keeping it in `output()`. */
  stderr?: 'pipe' | 'inherit';
}

export interface HeraldProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** What the service printed so far (stdout, and stderr unless inherited). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first or 60 s pass. */
  logged(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the URL the service listens on, once it does. */
  listening(): Promise<string>;
  /** Resolves with the exit code once the process has exited (null when a signal ended it). */
  exited(): Promise<number | null>;
  /** Sends `signal` (SIGTERM: a clean shutdown) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL (a crash), resolved once the process is gone. */
  kill(): Promise<void>;
}

/** Resolves with a process's exit code once it has exited (null when a signal ended it). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Sends `signal` unless the process has exited already, and resolves with its exit code. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exitOf(child);
}

/** Starts Herald in its own process; it is not listening yet (`listening()` says when). */
export function spawnHeraldProcess(options: LaunchOptions = {}): HeraldProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(options.nodeArgs ?? []), START], {
    cwd: ROOT,
    env: serviceEnv(options.env),
    stdio: ['ignore', 'pipe', options.stderr ?? 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr?.on('data', collect);
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  const logged = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const streams = [child.stdout!, child.stderr].filter((s) => s !== null);
      const done = () => {
        clearTimeout(timer);
        for (const stream of streams) stream.off('data', check);
        child.off('exit', failed);
      };
      const check = () => {
        const match = pattern.exec(output);
        if (match) done(), resolve(match);
        return match !== null;
      };
      const failed = (code: number | null) => (done(), reject(new Error(`herald exited with ${code} before logging ${pattern}:\n${output}`)));
      const timer = setTimeout(() => (done(), reject(new Error(`herald never logged ${pattern}:\n${output}`))), WAIT_MS);
      // Listeners added after `collect`, so each chunk is in `output` when checked.
      for (const stream of streams) stream.on('data', check);
      child.once('exit', failed);
      if (!check() && hasExited()) failed(child.exitCode);
    });

  return {
    child,
    get pid() {
      return child.pid!;
    },
    output: () => output,
    logged,
    listening: async () => (await logged(LISTENING))[1],
    exited: () => exitOf(child),
    stop: (signal) => stopProcess(child, signal),
    kill: async () => void (await stopProcess(child, 'SIGKILL')),
  };
}

/** Starts Herald in its own process and resolves once it listens; a process that fails to start is killed. */
export async function launchHeraldProcess(options: LaunchOptions = {}): Promise<HeraldProcess & { url: string }> {
  const herald = spawnHeraldProcess(options);
  try {
    const url = await herald.listening();
    return Object.assign(herald, { url });
  } catch (error) {
    await herald.kill();
    throw error;
  }
}

export type RequestInitWithJson = RequestInit & { json?: unknown };

/**
 * `fetch(url + path)` authorised with the API key (unless the request brings its own authorization);
 * `json` is sent as the JSON body.
 */
export function requestWithKey(url: string, apiKey: string, path: string, init: RequestInitWithJson = {}): Promise<Response> {
  return requestWithHeaders(url, path, init, { authorization: `ApiKey ${apiKey}` });
}

/** `fetch(url + path)` with `defaults` for the headers the request does not set; `json` is sent as the JSON body. */
export function requestWithHeaders(url: string, path: string, init: RequestInitWithJson, defaults: Record<string, string>): Promise<Response> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  for (const [name, value] of Object.entries(defaults)) if (!headers.has(name)) headers.set(name, value);
  if (json !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${url}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
}
