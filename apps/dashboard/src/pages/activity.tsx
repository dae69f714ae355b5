import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { Alert, Field, Page, useLoad, when } from '../components/ui';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];
const STATUSES = ['pending', 'queued', 'running', 'delayed', 'completed', 'skipped', 'failed', 'canceled', 'merged'];
const FILTERS = ['workflow', 'channel', 'status', 'subscriber', 'transactionId', 'after', 'before'] as const;
const PAGE_SIZE = 20;

/** `datetime-local` gives local time without a zone; the API wants an instant. */
function instant(local: string | null): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

/** The notifications list with the API's filters, newest first, polled so new ones appear without a reload. */
export function ActivityPage() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(0);
  const get = (name: (typeof FILTERS)[number]) => params.get(name) ?? '';
  const { data, error } = useLoad(
    () =>
      api.GET('/v1/notifications', {
        params: {
          query: {
            page,
            limit: PAGE_SIZE,
            templates: get('workflow') ? [get('workflow')] : undefined,
            channels: get('channel') ? [get('channel')] : undefined,
            status: get('status') ? [get('status')] : undefined,
            subscriberIds: get('subscriber') ? [get('subscriber')] : undefined,
            transactionId: get('transactionId') || undefined,
            after: instant(params.get('after')),
            before: instant(params.get('before')),
          } as never,
        },
      }),
    [params.toString(), page],
    3000,
  );

  function filter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of FILTERS) if (form.get(name)) next.set(name, String(form.get(name)));
    setPage(0);
    setParams(next);
  }

  return (
    <Page title="Activity">
      <form className="filters" onSubmit={filter} aria-label="Filters">
        <Field label="Workflow id"><input name="workflow" defaultValue={get('workflow')} /></Field>
        <Field label="Channel">
          <select name="channel" defaultValue={get('channel')}>
            <option value="">Any</option>
            {CHANNELS.map((c) => <option key={c}>{c}</option>)}
          </select>
        </Field>
        <Field label="Step status">
          <select name="status" defaultValue={get('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s}>{s}</option>)}
          </select>
        </Field>
        <Field label="Subscriber id"><input name="subscriber" defaultValue={get('subscriber')} /></Field>
        <Field label="Transaction id"><input name="transactionId" defaultValue={get('transactionId')} /></Field>
        <Field label="After"><input type="datetime-local" name="after" defaultValue={get('after')} /></Field>
        <Field label="Before"><input type="datetime-local" name="before" defaultValue={get('before')} /></Field>
        <button type="submit">Filter</button>
      </form>
      <Alert text={error} />
      <table>
        <thead>
          <tr><th>Created</th><th>Workflow</th><th>Subscriber</th><th>Channels</th><th>Steps</th><th>Transaction</th></tr>
        </thead>
        <tbody>
          {data?.data.map((n) => (
            <tr key={n._id}>
              <td><Link to={`/activity/${n._id}`}>{when(n.createdAt)}</Link></td>
              <td>{n.template?.name ?? '—'}</td>
              <td>{n.subscriber.subscriberId}</td>
              <td>{n.channels.join(', ')}</td>
              <td>{n.jobs.map((j) => `${j.step.stepId}: ${j.status}`).join(' · ')}</td>
              <td><code>{n.transactionId}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.data.length === 0 ? <p className="note">No notifications match.</p> : null}
      <div className="pager">
        <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>Newer</button>
        <span>Page {page + 1}</span>
        <button type="button" className="secondary" disabled={!data?.hasMore} onClick={() => setPage(page + 1)}>Older</button>
      </div>
    </Page>
  );
}
