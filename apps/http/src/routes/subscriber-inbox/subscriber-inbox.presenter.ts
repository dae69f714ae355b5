import type { InboxSession, PreferenceSource, Severity, SubscriberPreferencesView } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { PreferenceSchema, SessionSchema } from './subscriber-inbox.schemas';

type Preference = z.infer<typeof PreferenceSchema>;

/** Snoozing is offered up to 90 days ahead; the client hides snoozing when this is 0. */
const MAX_SNOOZE_HOURS = 90 * 24;

export function presentSession(session: InboxSession): z.infer<typeof SessionSchema> {
  return {
    token: session.token,
    totalUnreadCount: session.unreadCount.total,
    unreadCount: session.unreadCount,
    removeNovuBranding: true,
    isDevelopmentMode: session.environment.slug === 'development',
    maxSnoozeDurationHours: MAX_SNOOZE_HOURS,
    applicationIdentifier: session.environment.publicIdentifier,
    contextKeys: [],
  };
}

const SOURCE: Record<PreferenceSource, 'template' | 'subscriber'> = { workflow: 'template', global: 'subscriber', subscriber: 'subscriber' };

export function presentGlobalPreference(view: SubscriberPreferencesView): Preference {
  const { schedule } = view.global;
  return { level: 'global', enabled: view.global.enabled, channels: view.global.channels, ...(schedule ? { schedule } : {}) };
}

export function presentWorkflowPreference(entry: SubscriberPreferencesView['workflows'][number]): Preference {
  const { workflow } = entry;
  return {
    level: 'template',
    enabled: entry.enabled,
    channels: entry.channels,
    overrides: entry.overrides.map(({ channel, source }) => ({ channel, source: SOURCE[source] })),
    workflow: { id: workflow.id, identifier: workflow.identifier, name: workflow.name, critical: workflow.critical, tags: workflow.tags, severity: workflow.severity },
  };
}

/** The list the Inbox's preferences screen shows: the global level, then the workflows that match. */
export function presentPreferenceList(view: SubscriberPreferencesView, tags: string[], severities: Severity[]): Preference[] {
  const workflows = view.workflows.filter(
    ({ workflow }) => (!tags.length || workflow.tags.some((t) => tags.includes(t))) && (!severities.length || severities.includes(workflow.severity)),
  );
  return [presentGlobalPreference(view), ...workflows.map(presentWorkflowPreference)];
}

/** The view's entry for a workflow named by internal id or trigger identifier. */
export function findWorkflowPreference(view: SubscriberPreferencesView, workflowId: string) {
  return view.workflows.find(({ workflow }) => workflow.id === workflowId || workflow.identifier === workflowId);
}
