import { parseArgs } from 'node:util';
import { AesGcmCredentialCipher, applyMigrations, ChannelCredentialCipher, sealChannelSecrets, connectDatabase, loadEncryptionKeyring, PrismaTenancyRepository, startEmbeddedPostgres } from '@herald/adapters';
import { ConfigureInboxSecurity, ConfigureRetryPolicy, DomainError, ManageApiKeys, type Environment, type RetryPolicyView } from '@herald/domain';
import { loadConfig } from './config';
import { workflowsCommand, WORKFLOWS_USAGE } from './cli-workflows';
import { queuePurge, RETENTION_USAGE, retentionCommand, retentionText, setRetention } from './cli-retention';
import { environmentBySlugOrId } from '@herald/domain';
import { runUsersCommand, USERS_USAGE } from './cli-users';
import { webhooksCommand, WEBHOOKS_USAGE } from './cli-webhooks';
import { encryptionCommand, ENCRYPTION_USAGE } from './cli-encryption';

const USAGE = `Usage: pnpm herald <command>

  environments                              list environments (slug, name, id, inbox application identifier)
  environments set <slug|id> [--cors-origins <origin,...>] [--inbox-hmac on|off] [--retention-days <n>|default]
                                            browser origins allowed to call the inbox API; whether
                                            inbox sessions need subscriberHash (HMAC of the subscriber id;
                                            on by default in production). A change ends every subscriber
                                            token issued before it (within 5 s). Days its notifications,
                                            their jobs, details and messages, and its events are kept
                                            (1-3650; default: HERALD_RETENTION_DAYS, 90)
  keys list    --environment <slug|id>      list an environment's API keys (hints only)
  keys create  --environment <slug|id>      create a secret API key (printed once)
  keys revoke  <keyId>                      revoke an API key
  retry-policy [--environment <slug|id>]    show the provider retry policy in force
  retry-policy set '<json>' [--environment] set fields, e.g. '{"maxAttempts":8,"initialDelayMs":60000}'
  retry-policy reset [--environment]        follow the service default (HERALD_RETRY_POLICY) again
  subscribers encrypt-credentials           encrypt the channel credentials (webhook URLs, device
                                            tokens) that subscribers stored before they were
                                            encrypted at rest; safe to run again, and beside the service
${ENCRYPTION_USAGE}
${RETENTION_USAGE}
${WORKFLOWS_USAGE}
${USERS_USAGE}
${WEBHOOKS_USAGE}

Uses DATABASE_URL, or the embedded database in HERALD_DATA_DIR (default ./.data), running or not.`;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('BAD_REQUEST', `not JSON: ${text}`);
  }
}

function printPolicy({ environment, effective, own }: RetryPolicyView): void {
  console.log(`${environment.slug}: ${JSON.stringify(effective)}`);
  console.log(own ? `  set for this environment: ${JSON.stringify(own)}` : '  (the service default: HERALD_RETRY_POLICY or the built-in one)');
}

const hmacState = (e: Environment) => (e.inboxHmac ? 'on' : 'off (sessions need no subscriberHash)');

const OPTIONS = {
  environment: { type: 'string', short: 'e' },
  help: { type: 'boolean', short: 'h' },
  'cors-origins': { type: 'string' },
  'inbox-hmac': { type: 'string' },
  'retention-days': { type: 'string' },
  days: { type: 'string' },
  to: { type: 'string' },
  dir: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  url: { type: 'string' },
  description: { type: 'string' },
  'event-types': { type: 'string' },
  'overlap-seconds': { type: 'string' },
  disabled: { type: 'boolean' },
} as const;

/** The arguments, or for an unknown option or a missing value parseArgs' one-line refusal (naming it), not a stack trace. */
function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return { refused: (error instanceof Error ? error.message : String(error)).split('\n')[0] };
  }
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('refused' in parsed) {
    console.error(parsed.refused);
    return 1;
  }
  const { positionals, values } = parsed;
  const [command, action, target] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 1;
  }
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir });
  const db = connectDatabase(config.databaseUrl ?? embedded!.url, 2);
  try {
    await applyMigrations(db.pool);
    const encryptionKey = loadEncryptionKeyring({ configured: config.encryptionKey, previous: config.encryptionKeysPrevious, dataDir: config.dataDir });
    const cipher = new AesGcmCredentialCipher(encryptionKey);
    const tenancy = new PrismaTenancyRepository(db.prisma, cipher);
    const keys = new ManageApiKeys(tenancy);
    const environment = values.environment ?? 'development';
    if (command === 'environments' && action === 'set' && target) {
      const hmac = values['inbox-hmac'];
      if (hmac !== undefined && !['on', 'off'].includes(hmac)) throw new DomainError('BAD_REQUEST', '--inbox-hmac must be on or off');
      const corsOrigins = values['cors-origins']?.split(',').map((o) => o.trim()).filter(Boolean);
      const days = values['retention-days'];
      // The retention first: a refused value changes nothing else.
      const retention = days === undefined ? undefined : await setRetention(db, config.retentionDays, target, days);
      const inbox = new ConfigureInboxSecurity(tenancy);
      const { environment: e, exposure } = await inbox.execute(target, { corsOrigins, inboxHmac: hmac === undefined ? undefined : hmac === 'on' });
      const kept = retentionText(retention ?? { environment: e, own: e.retentionDays ?? null, days: e.retentionDays ?? config.retentionDays });
      console.log(`${e.slug}\tapplication identifier ${e.publicIdentifier}\tinbox HMAC ${hmacState(e)}\tCORS origins ${e.corsOrigins.join(',') || '(none)'}\t${kept}`);
      if (exposure) console.log(`\nWARNING: ${exposure}\nRequire it again: pnpm herald environments set ${e.slug} --inbox-hmac on`);
    } else if (command === 'environments') {
      for (const e of await keys.listEnvironments()) {
        const kept = retentionText({ environment: e, own: e.retentionDays ?? null, days: e.retentionDays ?? config.retentionDays });
        console.log(`${e.slug}\t${e.name}\t${e.id}\t${e.publicIdentifier}\tinbox HMAC ${hmacState(e)}\t${kept}`);
      }
    } else if (command === 'retention' && action === 'purge') {
      await queuePurge(config.databaseUrl ?? embedded!.url);
    } else if (command === 'retention' && !action) {
      const last = values.days === undefined ? 14 : Number(values.days);
      if (!Number.isInteger(last) || last < 1 || last > 3650) throw new DomainError('BAD_REQUEST', '--days must be a whole number from 1 to 3650');
      await retentionCommand(db, config.retentionDays, environment, last);
    } else if (command === 'keys' && action === 'list') {
      for (const k of await keys.list(environment)) console.log(`${k.id}\t${k.hint}\t${k.createdAt.toISOString()}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}`);
    } else if (command === 'keys' && action === 'create') {
      const { record, key } = await keys.create(environment);
      console.log(`Created key ${record.id} for ${environment}. It is shown once; only its hash is stored:\n\n  ${key}\n`);
    } else if (command === 'retry-policy' && (!action || action === 'set' || action === 'reset')) {
      const policies = new ConfigureRetryPolicy(new PrismaTenancyRepository(db.prisma), config.retryPolicy);
      if (action === 'set' && !target) throw new DomainError('BAD_REQUEST', `retry-policy set needs the fields as JSON\n\n${USAGE}`);
      const view = action === 'set' ? await policies.set(environment, parseJson(target!)) : action === 'reset' ? await policies.reset(environment) : await policies.show(environment);
      printPolicy(view);
    } else if (command === 'workflows') {
      const found = await environmentBySlugOrId(new PrismaTenancyRepository(db.prisma), environment);
      const known = await workflowsCommand(db, cipher, { action, target, environment: found, to: values.to, dir: values.dir ?? 'workflows', yes: values.yes ?? false });
      if (!known) {
        console.error(USAGE);
        return 1;
      }
    } else if (command === 'users' && (await runUsersCommand(action, values, db, config, new PrismaTenancyRepository(db.prisma)))) {
      // done
    } else if (command === 'subscribers' && action === 'encrypt-credentials') {
      const { sealed, left } = await sealChannelSecrets(db.pool, new ChannelCredentialCipher(encryptionKey));
      console.log(`Encrypted the channel credentials of ${sealed} subscribers.`);
      if (left) console.log(`${left} subscribers were written in plain text meanwhile (by a process of an older version?): run it again.`);
    } else if (command === 'encryption' && (await encryptionCommand(db, encryptionKey, action))) {
      // done
    } else if (command === 'webhooks') {
      const found = await environmentBySlugOrId(tenancy, environment);
      const flags = { url: values.url, description: values.description, 'event-types': values['event-types'], 'overlap-seconds': values['overlap-seconds'], disabled: values.disabled };
      if (!(await webhooksCommand(db, cipher, config.allowPrivateNetworks, { action, target, environment: found, flags }))) {
        console.error(USAGE);
        return 1;
      }
    } else if (command === 'keys' && action === 'revoke' && target) {
      await keys.revoke(target);
      console.log(`Revoked ${target} (callers using it are refused within a few seconds).`);
    } else {
      console.error(USAGE);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

process.exit(await main(process.argv.slice(2)));
