import { SqlWebhookEndpointRepository, type Database } from '@herald/adapters';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  DomainError,
  ListWebhookEndpoints,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
  type CredentialCipher,
  type Environment,
  type UpdateWebhookEndpointInput,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@herald/domain';

export const WEBHOOKS_USAGE = `  webhooks list [--environment <slug|id>]  the environment's outbound webhook endpoints (no secrets)
  webhooks create --url <url> [--description <text>] [--event-types <type,...>|all] [--disabled] [--environment]
                                            subscribe an address to the environment's events; prints
                                            its signing secret, this once
  webhooks update <id> [--url] [--description] [--event-types]   change an endpoint
  webhooks disable <id>, webhooks enable <id>   stop its deliveries; resume them (also after Herald
                                            disabled it for sustained failures)
  webhooks delete <id>                      delete it with its pending deliveries and delivery log
  webhooks rotate-secret <id> [--overlap-seconds <n>]   a new secret, printed once; the old one
                                            keeps signing beside it for the overlap (default 86400)`;

/** The flags of `pnpm herald webhooks ...` (parsed by cli.ts). */
export interface WebhookFlags {
  url?: string;
  description?: string;
  'event-types'?: string;
  'overlap-seconds'?: string;
  disabled?: boolean;
}

const FLAGS_OF_ACTION: Record<string, string[]> = {
  list: [],
  create: ['url', 'description', 'event-types', 'disabled'],
  update: ['url', 'description', 'event-types'],
  enable: [],
  disable: [],
  delete: [],
  'rotate-secret': ['overlap-seconds'],
};
// The use cases name the API's fields; the command names its own flags.
const FLAG_OF: Record<string, string> = { url: '--url', description: '--description', eventTypes: '--event-types' };

const invalid = (flag: string, message: string) => new DomainError('BAD_REQUEST', `${flag}: ${message}`);

/** `--event-types`: a comma-separated list of known types; `all` (or nothing) for every type. */
function eventTypes(value: string | undefined): WebhookEventType[] | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((t) => t.trim()).filter(Boolean);
  if (types.length === 1 && types[0] === 'all') return [];
  const unknown = types.find((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw invalid('--event-types', `unknown event type '${unknown}' (known: ${WEBHOOK_EVENT_TYPES.join(', ')}, or all)`);
  return types as WebhookEventType[];
}

function description(value: string | undefined): string | null | undefined {
  if (value !== undefined && value.length > WEBHOOK_DESCRIPTION_MAX) throw invalid('--description', `at most ${WEBHOOK_DESCRIPTION_MAX} characters`);
  return value === undefined ? undefined : value || null;
}

function overlapMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\d+$/.test(value.trim()) || seconds > WEBHOOK_SECRET_OVERLAP_MAX_SECONDS) throw invalid('--overlap-seconds', `a whole number of seconds from 0 to ${WEBHOOK_SECRET_OVERLAP_MAX_SECONDS}`);
  return seconds * 1000;
}

function line(e: WebhookEndpoint): string {
  const state = e.enabled ? 'enabled' : `disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`;
  return [e.id, state, e.url, e.eventTypes.length ? e.eventTypes.join(',') : 'all event types', e.description ?? ''].join('\t');
}

/** A refusal of the use case, naming the command's flag instead of the API's field. */
function asFlags(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.fields) return error;
  const [field, { messages }] = Object.entries(error.fields)[0];
  return invalid(FLAG_OF[field] ?? field, messages[0]);
}

/**
 * `pnpm herald webhooks ...`: the same use cases as the API's routes, on the environment given.
 * Every input is checked before anything is written. False when the action is not one of them.
 */
export async function webhooksCommand(
  db: Database,
  cipher: CredentialCipher,
  allowPrivateNetworks: boolean,
  { action, target, environment, flags }: { action?: string; target?: string; environment: Environment; flags: WebhookFlags },
): Promise<boolean> {
  if (!action || !(action in FLAGS_OF_ACTION)) return false;
  const endpoints = new SqlWebhookEndpointRepository(db.pool, cipher);
  const policy = { allowPrivateNetworks };
  const env = environment.id;
  const needsId = () => {
    if (!target) throw invalid('<id>', `webhooks ${action} needs the endpoint's id (pnpm herald webhooks list)`);
    return target;
  };
  try {
    const stray = Object.keys(flags).find((f) => flags[f as keyof WebhookFlags] !== undefined && !FLAGS_OF_ACTION[action].includes(f));
    if (stray) throw invalid(`--${stray}`, `not an option of webhooks ${action}`);
    if (action === 'list') {
      const list = await new ListWebhookEndpoints(endpoints).execute(env);
      if (!list.length) console.log(`${environment.slug}: no webhook endpoints`);
      for (const e of list) console.log(line(e));
    } else if (action === 'create') {
      if (!flags.url) throw invalid('--url', 'required: the https address to send events to');
      const input = { environmentId: env, url: flags.url, description: description(flags.description), eventTypes: eventTypes(flags['event-types']), enabled: !flags.disabled };
      const { endpoint, secret } = await new CreateWebhookEndpoint(endpoints, policy).execute(input);
      console.log(`Created webhook endpoint for ${environment.slug}:\n${line(endpoint)}\n\nIts signing secret is shown this once (stored encrypted):\n\n  ${secret}\n`);
    } else if (action === 'update' || action === 'enable' || action === 'disable') {
      const id = needsId();
      const patch: UpdateWebhookEndpointInput =
        action === 'update'
          ? { url: flags.url, description: description(flags.description), eventTypes: eventTypes(flags['event-types']) }
          : { enabled: action === 'enable' };
      if (Object.values(patch).every((v) => v === undefined)) throw invalid('webhooks update', 'give at least one of --url, --description, --event-types');
      console.log(line(await new UpdateWebhookEndpoint(endpoints, policy).execute(env, id, patch)));
    } else if (action === 'delete') {
      const id = needsId();
      await new DeleteWebhookEndpoint(endpoints).execute(env, id);
      console.log(`Deleted webhook endpoint ${id} with its pending deliveries and delivery log.`);
    } else {
      const id = needsId();
      const { endpoint, secret } = await new RotateWebhookSecret(endpoints).execute(env, id, overlapMs(flags['overlap-seconds']));
      const until = endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date() ? `until ${endpoint.previousSecretUntil.toISOString()}` : 'no longer (no overlap)';
      console.log(`New signing secret for ${id}, shown this once; the previous one also signs ${until}:\n\n  ${secret}\n`);
    }
    return true;
  } catch (error) {
    throw asFlags(error);
  }
}
