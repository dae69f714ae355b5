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

/** The README's line on what sends: how many provider ids per channel, with the details a link away. */
export function sendsSummary(definitions: readonly ProviderDefinition[]): string {
  const rows = sending(definitions);
  const per = CHANNELS.map((channel) => `${rows.filter((d) => d.channel === channel).length} ${channel === 'sms' ? 'SMS' : channel}`);
  return `${rows.length} provider ids send (${per.join(', ')}): each with its credentials in [docs/providers.md](docs/providers.md#what-sends), and the interface ids that do not send yet [with the reason](docs/providers.md#not-sending-yet).`;
}

/** docs/providers.md's "What sends" table: every registered provider with its credentials. */
export function whatSendsTable(definitions: readonly ProviderDefinition[]): string {
  const rows = sending(definitions).map((d) => `| ${d.channel} | \`${d.id}\` | ${credentials(d.id)} |`);
  return ['| Channel | Provider id | Credentials |', '|---|---|---|', ...rows].join('\n');
}

/** Interface provider ids this build does not send through, by channel, with the reason. */
export function notSendingList(definitions: readonly ProviderDefinition[]): string {
  // Written as a default installation names them (SERVICE_NAME herald).
  const catalogue = providerCatalogue('herald');
  const registered = new Set(definitions.map((d) => registeredId(d.id, 'herald')));
  const missing = (channel: string) => catalogue.ids.filter((id) => catalogue.find(id)?.channel === channel && !registered.has(id));
  const lines = CHANNELS.map((channel) => ({ channel, ids: missing(channel) })).filter((l) => l.ids.length).map((l) => `- ${l.channel}: ${code(l.ids)}`);
  const agents = catalogue.ids.filter((id) => catalogue.find(id)?.kind === 'agent');
  return [...lines, `- agent integrations (${code(agents)}) deliver on no channel: they are stored for the agent features, not sent through`].join('\n');
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
