import { useState } from 'react';
import { api } from '../api/client';
import { Alert, attempt, useLoad } from '../components/ui';
import { useSession } from '../session';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
type Channels = Record<(typeof CHANNELS)[number], boolean>;

/** A subscriber's preferences, global and per workflow: one switch per channel, saved as it is flipped. */
export function SubscriberPreferences({ subscriberId }: { subscriberId: string }) {
  const { canWrite } = useSession();
  const path = { path: { subscriberId } };
  const { data, error, reload } = useLoad(() => api.GET('/v2/subscribers/{subscriberId}/preferences', { params: path }), [subscriberId]);
  const [failed, setFailed] = useState<string>();
  // The switch shows its new state at once; the server's answer then decides.
  const [flipped, setFlipped] = useState<Record<string, boolean>>({});

  async function flip(channel: (typeof CHANNELS)[number], enabled: boolean, workflowId?: string) {
    setFlipped({ ...flipped, [`${workflowId ?? ''}/${channel}`]: enabled });
    const result = await attempt(api.PATCH('/v2/subscribers/{subscriberId}/preferences', { params: path, body: { channels: { [channel]: enabled }, ...(workflowId ? { workflowId } : {}) } }));
    setFailed(result.error);
    await reload();
    setFlipped({});
  }

  const row = (label: string, channels: Channels, workflowId?: string) => (
    <tr key={workflowId ?? 'global'}>
      <th scope="row">{label}</th>
      {CHANNELS.map((c) => (
        <td key={c}>
          <input type="checkbox" aria-label={`${label}: ${c}`} checked={flipped[`${workflowId ?? ''}/${c}`] ?? channels[c]} disabled={!canWrite} onChange={(e) => void flip(c, e.target.checked, workflowId)} />
        </td>
      ))}
    </tr>
  );

  return (
    <section className="panel" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferences</h2>
      <Alert text={error ?? failed} />
      {data ? (
        <table>
          <thead>
            <tr><th>Workflow</th>{CHANNELS.map((c) => <th key={c}>{c}</th>)}</tr>
          </thead>
          <tbody>
            {row('All workflows', data.data.global.channels as Channels)}
            {data.data.workflows.map((w) => row(w.workflow.name, w.channels as Channels, w.workflow.identifier))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
