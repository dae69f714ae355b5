import { PgBoss, type ConstructorOptions } from 'pg-boss';
import type { Logger } from 'pino';
import { libraryQuery } from '../persistence/sql-params';

export type { PgBoss };

/** pg-boss settings a caller may override; the connection always comes from `url`. */
export type PgBossOptions = Omit<ConstructorOptions, 'connectionString' | 'db'>;

/**
 * The one pg-boss instance of a process, shared by every queue and schedule in it. It has its own
 * small pool. Installs or migrates pg-boss's schema (`pgboss`) on first start; safe when several
 * processes start at once.
 */
export async function startPgBoss(url: string, log: Logger, options: PgBossOptions = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    max: 5,
    application_name: 'herald-pg-boss',
    // Workers in every process wake on committed work (LISTEN/NOTIFY) instead of waiting for a poll.
    useListenNotify: true,
    ...options,
    connectionString: url,
  });
  namePgBossStatements(boss);
  // Without a listener an 'error' event would throw; pg-boss recovers from these on its own.
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  boss.on('warning', (warning) => log.warn({ warning }, 'pg-boss warning'));
  await boss.start();
  return boss;
}

/** Stops fetching, lets running jobs finish for up to `timeoutMs`, then closes pg-boss's pool. */
export async function stopPgBoss(boss: PgBoss, timeoutMs = 10_000): Promise<void> {
  await boss.stop({ graceful: true, close: true, timeout: timeoutMs });
}

/**
 * pg-boss sends its statements unnamed, so PostgreSQL would plan its fetch and complete on every
 * call, and under trigger load their planning takes longer than their execution (pg_stat_statements). Statements with parameters (single statements, so they can be prepared) are sent
 * named, and each of pg-boss's connections plans them once.
 */
function namePgBossStatements(boss: PgBoss): void {
  // pg-boss's own Db passes what it is given to pg's pool.query, which takes a query config as well.
  const db = boss.getDb() as { executeSql(text: string | ReturnType<typeof libraryQuery>, values?: unknown[]): Promise<unknown> };
  const execute = db.executeSql.bind(db);
  db.executeSql = (text, values) => execute(typeof text === 'string' ? libraryQuery(text, values) : text);
}
