import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { Alert, useLoad, when } from '../components/ui';

/**
 * A topic trigger's fan-out: recipients expanded of total, polled every 2 s while it fans out and
 * no more once it is done (each read counts the trigger's notifications).
 */
export function NotificationTrigger({ notificationId }: { notificationId: string }) {
  const [fanning, setFanning] = useState(false);
  const { data, error } = useLoad(
    async () => {
      const answer = await api.GET('/v1/notifications/{notificationId}/trigger', { params: { path: { notificationId } } });
      setFanning(answer.data?.data.status === 'fanning_out');
      return answer;
    },
    [notificationId],
    fanning ? 2000 : undefined,
  );
  const p = data?.data;
  if (error) return <Alert text={error} />;
  if (!p || p.topicKeys.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="fanout-title">
      <h2 id="fanout-title">Topic fan-out</h2>
      <p>
        To {p.topicKeys.map((k, i) => <span key={k}>{i ? ', ' : ''}<Link to={`/activity?transactionId=${encodeURIComponent(p.transactionId)}`}>{k}</Link></span>)}:{' '}
        <span data-testid="fanout-progress">{p.recipients.toLocaleString()} of {p.status === 'fanning_out' ? 'at most ' : ''}{p.total.toLocaleString()} recipients expanded</span>{' '}
        ({p.status === 'fanning_out' ? 'fanning out' : p.status === 'fanned_out' ? `done ${when(p.fannedOutAt)}` : p.status}).
      </p>
      <progress max={Math.max(p.total, 1)} value={p.recipients} aria-label="Recipients expanded" />
    </section>
  );
}
