import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/http/src/config';
import { startHerald, type RunningHerald } from '../../apps/http/src/server';
import { launchHeraldProcess, requestWithKey, stopProcess, type HeraldProcess } from '../../test/support/herald-process';

export { requestWithKey };

export interface BenchService {
  herald: RunningHerald;
  url: string;
  apiKey: string;
  request(path: string, init?: RequestInit & { json?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts Herald in this process on a fresh embedded PostgreSQL (durable settings, as a user runs it),
 * or on DATABASE_URL when set. Logs are quiet so they do not cost time.
 */
export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-'));
  const apiKey = 'bench-key';
  const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', HERALD_DATA_DIR: dataDir, HERALD_API_KEY: apiKey, LOG_LEVEL: 'warn', ...env });
  const herald = await startHerald(config);
  return {
    herald,
    url: herald.url,
    apiKey,
    request: (path, init) => requestWithKey(herald.url, apiKey, path, init),
    async close() {
      await herald.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Node flags for the spawned service from BENCH_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 * to profile the service under a benchmark's load (Node refuses --cpu-prof in NODE_OPTIONS).
 */
function nodeArgs(): string[] {
  return process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
}

/** Herald in its own process, as `pnpm start` runs it (its memory and CPU are its own); resolves once it listens. */
export function spawnHerald(env: NodeJS.ProcessEnv): Promise<HeraldProcess & { url: string }> {
  return launchHeraldProcess({ env, nodeArgs: nodeArgs(), stderr: 'inherit' });
}

/** Stops a spawned Herald with SIGTERM, as a process manager would, and waits for it to exit. */
export async function stopHerald(child: ChildProcess): Promise<void> {
  await stopProcess(child);
}

/** A process's resident memory now (VmRSS) or its peak so far (VmHWM), in MB. */
export async function processMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: Linux reports /proc CPU times in 1/100 s.

/** A process's parent pid and its CPU time so far (user + system), in seconds; null once it has exited. */
async function processStat(pid: number): Promise<{ ppid: number; cpuSeconds: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command name (which may hold spaces): state, ppid, ... utime (14th), stime (15th).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND };
}

/** CPU seconds a process has used so far. */
export async function processCpuSeconds(pid: number): Promise<number> {
  return (await processStat(pid))?.cpuSeconds ?? NaN;
}

/**
 * CPU seconds used so far by a PostgreSQL cluster on this machine: its postmaster (the parent of
 * `childPid`, one of its long-lived processes such as the checkpointer) and every process it runs
 * now. A backend that has exited is not counted: take both readings while the service's connections stay open.
 */
export async function postgresCpuSeconds(childPid: number): Promise<number> {
  const postmaster = (await processStat(childPid))?.ppid;
  if (!postmaster) return NaN;
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = await Promise.all(pids.map(async (pid) => ({ pid, stat: await processStat(pid) })));
  return stats.reduce((sum, { pid, stat }) => sum + (stat && (pid === postmaster || stat.ppid === postmaster) ? stat.cpuSeconds : 0), 0);
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarize(samplesMs: number[]): { p50: number; p99: number; mean: number; n: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), mean: round(mean), n: sorted.length };
}

/** One line per figure, `name: value unit (target ...)`, so notes can quote it. */
export function report(name: string, value: number | string, unit: string, target?: string): void {
  const verdict = target ? ` (target ${target})` : '';
  process.stdout.write(`${name}: ${value} ${unit}${verdict}\n`);
}
