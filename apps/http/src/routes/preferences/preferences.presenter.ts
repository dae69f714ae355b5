import type { PreferenceSource, SubscriberPreferencesView } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { SubscriberPreferencesSchema } from './preferences.schemas';

// The interface's source values: a subscriber level (global or per workflow) or the workflow ("template").
const SOURCE: Record<PreferenceSource, 'template' | 'subscriber'> = { workflow: 'template', global: 'subscriber', subscriber: 'subscriber' };

export function presentPreferences(view: SubscriberPreferencesView): z.infer<typeof SubscriberPreferencesSchema> {
  return {
    global: view.global,
    workflows: view.workflows.map(({ workflow, enabled, channels, overrides }) => ({
      enabled,
      channels,
      overrides: overrides.map(({ channel, source }) => ({ channel, source: SOURCE[source] })),
      workflow: { slug: workflow.identifier, identifier: workflow.identifier, name: workflow.name, updatedAt: workflow.updatedAt.toISOString() },
    })),
  };
}
