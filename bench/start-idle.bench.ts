import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@herald/adapters';
import { processMemoryMb, report, spawnHerald, stopHerald, summarize } from './support/herald';

// Issue 13: cold start to healthy on an initialised data directory (target < 2 s), and what an idle
// service costs after 60 s without work (targets < 0.5% of one core, < 200 MB RSS). Herald runs as
// `pnpm start` runs it, on its embedded PostgreSQL. Same-run baselines: the embedded PostgreSQL
// alone started on the same data directory; the idle PostgreSQL cluster's own CPU.
const STARTS = Number(process.env.STARTS ?? 5);
const IDLE_WAIT_MS = Number(process.env.IDLE_WAIT_MS ?? 60_000);
const IDLE_SAMPLE_MS = Number(process.env.IDLE_SAMPLE_MS ?? 30_000);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-start-'));
const env = { HERALD_DATA_DIR: dataDir, HERALD_API_KEY: 'bench-key', DATABASE_URL: undefined };

/** Spawns the service and resolves once `/v1/health-check` answers 200. */
async function startHealthy(): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const { child, url } = await spawnHerald(env);
  for (;;) {
    const ok = await fetch(`${url}/v1/health-check`).then((r) => r.ok, () => false);
    if (ok) return { child, ms: performance.now() - started };
    await new Promise((r) => setTimeout(r, 5));
  }
}


async function cpuTicks(pid: number, withReapedChildren = false): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  // utime + stime, and cutime + cstime: the children it has waited for.
  return Number(fields[11]) + Number(fields[12]) + (withReapedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
}


/** The postmaster and its children: every process whose parent chain leads to `pid`. */
async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.split(') ')[1].split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

try {
  // First start initialises the data directory (initdb, migrations); not measured.
  await stopHerald((await startHealthy()).child);

  const postgresAlone: number[] = [];
  const herald: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    const postgres = await startEmbeddedPostgres({ dataDir });
    postgresAlone.push(performance.now() - t);
    await postgres.stop();
    const { child, ms } = await startHealthy();
    herald.push(ms);
    await stopHerald(child);
  }
  const start = summarize(herald);
  const baseline = summarize(postgresAlone);
  report('cold start to healthy, p50', round(start.p50, 0), 'ms', '< 2000 ms');
  report('cold start to healthy, max', round(Math.max(...herald), 0), 'ms');
  report('baseline: the embedded PostgreSQL alone started on the same data directory, p50', round(baseline.p50, 0), 'ms');

  const { child } = await startHealthy();
  const pid = child.pid!;
  const postmaster = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
  // The postmaster with what its exited backends used (it reaps them), and its live processes now.
  const clusterTicks = async () => {
    const [postmasterTicks, ...children] = await Promise.all(
      (await processTree(postmaster)).map((p, i) => cpuTicks(p, i === 0).catch(() => 0)),
    );
    return children.reduce((a, b) => a + b, postmasterTicks);
  };
  const [heraldBefore, clusterBefore] = [await cpuTicks(pid), await clusterTicks()];
  let peakRss = await processMemoryMb(pid);
  const sampling = Date.now();
  while (Date.now() - sampling < IDLE_SAMPLE_MS) {
    await new Promise((r) => setTimeout(r, 1_000));
    peakRss = Math.max(peakRss, await processMemoryMb(pid));
  }
  const seconds = (Date.now() - sampling) / 1000;
  const heraldCpu = ((await cpuTicks(pid)) - heraldBefore) / TICKS_PER_SECOND / seconds;
  const clusterCpu = ((await clusterTicks()) - clusterBefore) / TICKS_PER_SECOND / seconds;
  report(`idle CPU of the service process (${IDLE_WAIT_MS / 1000} s after start, over ${round(seconds, 0)} s)`, round(heraldCpu * 100), '% of one core', '< 0.5%');
  report('idle RSS of the service process, peak', round(peakRss, 0), 'MB', '< 200 MB');
  report('baseline: the idle embedded PostgreSQL cluster, same window', round(clusterCpu * 100), '% of one core');
  await stopHerald(child);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
