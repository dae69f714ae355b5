import { useParams } from 'react-router';
import { api } from '../api/client';
import { Alert, Page, useLoad, when } from '../components/ui';
import { NotificationTrigger } from './notification-trigger';

/** A notification's timeline (and its topic fan-out's progress): each step's job, every execution detail and the provider's answer, polled while it runs. */
export function NotificationPage() {
  const { notificationId = '' } = useParams();
  const { data, error } = useLoad(() => api.GET('/v1/notifications/{notificationId}', { params: { path: { notificationId } } }), [notificationId], 2000);
  const n = data?.data;
  return (
    <Page title={n ? `${n.template?.name ?? 'Notification'} to ${n.subscriber.subscriberId}` : 'Notification'}>
      <Alert text={error} />
      {n ? (
        <>
          <dl className="facts">
            <dt>Transaction</dt><dd><code>{n.transactionId}</code></dd>
            <dt>Created</dt><dd>{when(n.createdAt)}</dd>
            <dt>Topics</dt><dd>{n.topics.map((t) => t.topicKey).join(', ') || '—'}</dd>
            <dt>Payload</dt><dd><pre>{JSON.stringify(n.payload, null, 2)}</pre></dd>
          </dl>
          <NotificationTrigger notificationId={notificationId} />
          <ol className="timeline" aria-label="Steps">
            {n.jobs.map((job) => (
              <li key={job._id} data-status={job.status}>
                <h2>
                  {job.step.name} <small>({job.type})</small>: <span className="status">{job.status}</span>
                </h2>
                <p className="note">
                  {job.providerId ? `Provider ${job.providerId}. ` : ''}
                  {job.digest && Object.keys(job.digest).length ? `Digest ${JSON.stringify(job.digest)}. ` : ''}
                  Updated {when(job.updatedAt)}.
                </p>
                {job.message ? (
                  <p>
                    Message {job.message.status}
                    {job.message.subject ? `: “${job.message.subject}”` : ''}
                  </p>
                ) : null}
                <table>
                  <thead>
                    <tr><th>When</th><th>Status</th><th>What happened</th><th>Provider’s answer</th></tr>
                  </thead>
                  <tbody>
                    {job.executionDetails.map((d) => (
                      <tr key={d._id}>
                        <td>{when(d.createdAt)}</td>
                        <td>{d.status}{d.isRetry ? ' (retry)' : ''}</td>
                        <td>{d.detail}</td>
                        <td>{d.raw ? <code className="raw">{typeof d.raw === 'string' ? d.raw : JSON.stringify(d.raw)}</code> : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Page>
  );
}
