import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { Alert, attempt, Field, Page, useLoad, when } from '../components/ui';
import { useSession } from '../session';

/** Topics, and the chosen topic's subscriptions (with the contexts they are scoped to); admins create and add. */
export function TopicsPage() {
  const { canWrite } = useSession();
  const topics = useLoad(() => api.GET('/v2/topics', { params: { query: { limit: 100 } } }), []);
  const [chosen, setChosen] = useState<string>();
  const subscriptions = useLoad(
    () => (chosen ? api.GET('/v2/topics/{topicKey}/subscriptions', { params: { path: { topicKey: chosen }, query: { limit: 100 } as never } }) : Promise.resolve({ data: undefined, response: new Response() })),
    [chosen],
  );
  const [error, setError] = useState<string>();

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await attempt(api.POST('/v2/topics', { body: { key: String(form.get('key')), name: String(form.get('name') || form.get('key')) } }));
    setError(result.error);
    if (!result.error) event.currentTarget?.reset();
    await topics.reload();
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ids = String(new FormData(event.currentTarget).get('subscribers')).split(',').map((s) => s.trim()).filter(Boolean);
    const result = await attempt(api.POST('/v2/topics/{topicKey}/subscriptions', { params: { path: { topicKey: chosen! } }, body: { subscriptions: ids } }));
    setError(result.error);
    await subscriptions.reload();
  }

  return (
    <Page title="Topics">
      <Alert text={topics.error ?? error} />
      {canWrite ? (
        <form className="filters" onSubmit={create} aria-label="New topic">
          <Field label="Topic key"><input name="key" required /></Field>
          <Field label="Topic name"><input name="name" /></Field>
          <button type="submit">Create topic</button>
        </form>
      ) : null}
      <table>
        <thead><tr><th>Key</th><th>Name</th><th>Created</th></tr></thead>
        <tbody>
          {(topics.data?.data as Array<{ _id: string; key: string; name?: string; createdAt: string }> | undefined)?.map((t) => (
            <tr key={t._id} aria-selected={t.key === chosen}>
              <td><button type="button" className="link" onClick={() => setChosen(t.key)}>{t.key}</button></td>
              <td>{t.name ?? '—'}</td>
              <td>{when(t.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {chosen ? (
        <section className="panel" aria-labelledby="subs-title">
          <h2 id="subs-title">Subscriptions of {chosen}</h2>
          <table>
            <thead><tr><th>Subscriber</th><th>Identifier</th><th>Context</th><th>Since</th></tr></thead>
            <tbody>
              {subscriptions.data?.data.map((s) => (
                <tr key={s._id}>
                  <td>{s.subscriber ? <Link to={`/subscribers/${encodeURIComponent(s.subscriber.subscriberId)}`}>{s.subscriber.subscriberId}</Link> : '—'}</td>
                  <td>{s.identifier}</td>
                  <td>{s.contextKeys.join(', ') || 'any'}</td>
                  <td>{when(s.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {canWrite ? (
            <form className="filters" onSubmit={add} aria-label="Add subscribers">
              <Field label="Subscriber ids (comma-separated)"><input name="subscribers" required /></Field>
              <button type="submit">Add</button>
            </form>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
