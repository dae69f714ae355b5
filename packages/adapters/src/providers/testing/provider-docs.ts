import { credentialFields, providerCatalogue } from '@herald/domain';
import type { ProviderDefinition } from '../kit/provider-definition';
import { registeredId } from '../static-provider-registry';
import type { ProviderFake } from './provider-fake';

const CHANNELS = ['email', 'sms', 'chat', 'push'] as const;
const code = (items: readonly string[]) => items.map((i) => `\`${i}\``).join(', ');

function credentials(id: string): string {
  const { required, optional } = credentialFields(id);
  const parts = [required.length ? code(required) : 'none', ...(optional.length ? [`optional ${code(optional)}`] : [])];
  return parts.join('; ');
}

/** Registered providers in channel order, the built-in sinks (which take no credentials) left out. */
function sending(definitions: readonly ProviderDefinition[]) {
  const catalogue = providerCatalogue('svc');
  return CHANNELS.flatMap((channel) => definitions.filter((d) => !catalogue.find(d.id)?.builtIn && catalogue.find(d.id)?.channel === channel).map((d) => ({ ...d, channel })));
}

/** Fields tersely, optional ones in brackets: `apiKey, from, [senderName]`. */
function terseFields(id: string): string {
  const { required, optional } = credentialFields(id);
  return [...required, ...optional.map((f) => `[${f}]`)].join(', ') || 'none';
}

/**
 * The README's "What sends" table, compact enough for the front door: one row per channel and
 * credential set, so providers that take the same fields share a row.
 */
export function whatSendsCompact(definitions: readonly ProviderDefinition[]): string {
  const rows = sending(definitions);
  const per = CHANNELS.map((channel) => `${rows.filter((d) => d.channel === channel).length} ${channel === 'sms' ? 'SMS' : channel}`);
  const lines = CHANNELS.flatMap((channel) => {
    const byFields = new Map<string, string[]>();
    for (const d of rows.filter((r) => r.channel === channel)) byFields.set(terseFields(d.id), [...(byFields.get(terseFields(d.id)) ?? []), d.id]);
    return [...byFields].map(([fields, ids]) => `| ${channel} | ${code(ids)} | ${fields} |`);
  });
  const head = `${rows.length} provider ids send (${per.join(', ')}); [optional] credentials, details: [docs/providers.md](docs/providers.md#what-sends).`;
  return [head, '', '| Channel | Provider ids | Credentials |', '|---|---|---|', ...lines].join('\n');
}

/** docs/providers.md's "What sends" table: every registered provider with its credentials. */
export function whatSendsTable(definitions: readonly ProviderDefinition[]): string {
  const rows = sending(definitions).map((d) => `| ${d.channel} | \`${d.id}\` | ${credentials(d.id)} |`);
  return ['| Channel | Provider id | Credentials |', '|---|---|---|', ...rows].join('\n');
}

// Why an interface id has no adapter, where it is not simply "not written yet".
const REASONS: ReadonlyArray<{ ids: readonly string[]; reason: string }> = [
  { ids: ['emailjs'], reason: 'an SMTP library, not a service (`nodemailer` reaches the same servers)' },
  { ids: ['herald-email-agent', 'herald-slack'], reason: "the hosted service's own agent mailbox and Slack app (no account for them when self-hosted)" },
];

/** Ids as code, the line broken before 100 characters (the README keeps its lines short). */
function wrapped(ids: readonly string[]): string {
  const lines = [''];
  for (const id of ids.map((i) => `\`${i}\``)) {
    const last = lines.length - 1;
    if (lines[last] && lines[last].length + id.length > 96) lines.push('');
    lines[lines.length - 1] += `${lines[lines.length - 1] ? ', ' : ''}${id}`;
  }
  return lines.join(',\n  ');
}

/** Interface provider ids this build does not send through, grouped by the reason. */
export function notSendingList(definitions: readonly ProviderDefinition[]): string {
  // Written as a default installation names them (SERVICE_NAME herald).
  const catalogue = providerCatalogue('herald');
  const registered = new Set(definitions.map((d) => registeredId(d.id, 'herald')));
  const explained = new Set(REASONS.flatMap((r) => r.ids));
  const onChannels = (id: string) => (CHANNELS as readonly string[]).includes(catalogue.find(id)?.channel ?? '') && catalogue.find(id)?.kind !== 'agent';
  const missing = catalogue.ids.filter((id) => onChannels(id) && !registered.has(id));
  const later = missing.filter((id) => !explained.has(id));
  const agents = catalogue.ids.filter((id) => catalogue.find(id)?.kind === 'agent');
  return [
    ...(later.length ? [`- no adapter written yet ([add one](docs/add-a-provider.md)): ${wrapped(later)}`] : []),
    ...REASONS.map((r) => ({ ...r, ids: r.ids.filter((id) => missing.includes(id)) })).filter((r) => r.ids.length).map((r) => `- ${r.reason}: ${code(r.ids)}`),
    `- agent integrations deliver on no channel (stored for the agent features): ${code(agents)}`,
  ].join('\n');
}

/** docs/providers.md's table: what each provider sends through and what its API cannot carry. */
export function providerDetails(definitions: readonly ProviderDefinition[], fakes: readonly ProviderFake[], versions: Record<string, string>): string {
  const withVersion = (through: string) => through.replace(/`([^`]+)`/, (all, name: string) => (versions[name] ? `\`${name}\` ${versions[name]}` : all));
  const rows = sending(definitions).map((d) => {
    const fake = fakes.find((f) => f.id === d.id);
    const limits = Object.entries({ ...fake?.overrides.unmapped, ...fake?.unsupported }).filter(([, why]) => why).map(([what, why]) => `${what}: ${why}`);
    const given = Object.keys(fake?.overrides.given ?? {});
    return `| \`${d.id}\` | ${withVersion(d.through)} | ${given.length ? code(given) : '—'} | ${limits.join('; ') || '—'} |`;
  });
  return ['| Provider id | Sends through | Overrides on the wire (contract-tested) | What its protocol cannot show |', '|---|---|---|---|', ...rows].join('\n');
}
