import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { Alert, attempt, Field, Page, useLoad, when } from '../components/ui';
import { useSession } from '../session';
import { SubscriberChannels } from './subscriber-channels';
import { SubscriberPreferences } from './subscriber-preferences';

const PROFILE = ['firstName', 'lastName', 'email', 'phone', 'locale', 'timezone'] as const;

/** A subscriber's profile (editable), channel settings, preferences, topics and inbox, with a link to their activity. */
export function SubscriberPage() {
  const { subscriberId = '' } = useParams();
  const { canWrite } = useSession();
  const path = { path: { subscriberId } };
  const profile = useLoad(() => api.GET('/v2/subscribers/{subscriberId}', { params: path }), [subscriberId]);
  const topics = useLoad(() => api.GET('/v2/subscribers/{subscriberId}/subscriptions', { params: path }), [subscriberId]);
  const inbox = useLoad(() => api.GET('/v2/subscribers/{subscriberId}/notifications', { params: { ...path, query: { limit: 10 } as never } }), [subscriberId]);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; ok?: string }>({});
  const s = profile.data?.data;

  useEffect(() => {
    if (s) setDraft(Object.fromEntries(PROFILE.map((k) => [k, (s[k] as string | null) ?? ''])));
  }, [s]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const body = Object.fromEntries(PROFILE.map((k) => [k, draft[k] === '' ? null : draft[k]]));
    const result = await attempt(api.PATCH('/v2/subscribers/{subscriberId}', { params: path, body }));
    setMessage(result.error ? { error: result.error } : { ok: 'Saved.' });
    await profile.reload();
  }

  return (
    <Page title={`Subscriber ${subscriberId}`} actions={<Link to={`/activity?subscriber=${encodeURIComponent(subscriberId)}`}>Their activity</Link>}>
      <Alert text={profile.error} />
      {s ? (
        <form onSubmit={save} aria-label="Profile" className="panel">
          <h2>Profile</h2>
          <fieldset disabled={!canWrite} className="grid">
            {PROFILE.map((k) => (
              <Field key={k} label={k}><input value={draft[k] ?? ''} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} /></Field>
            ))}
          </fieldset>
          <Alert text={message.error} />
          {message.ok ? <p role="status">{message.ok}</p> : null}
          <button type="submit" disabled={!canWrite}>Save profile</button>
        </form>
      ) : null}
      {s ? <SubscriberChannels subscriberId={subscriberId} channels={s.channels} canWrite={canWrite} onSaved={() => void profile.reload()} /> : null}
      <SubscriberPreferences subscriberId={subscriberId} />
      <section className="panel" aria-labelledby="topics-title">
        <h2 id="topics-title">Topics</h2>
        {topics.data?.data.length ? <ul>{topics.data.data.map((t) => <li key={t._id}>{t.topic.key}</li>)}</ul> : <p className="note">In no topic.</p>}
      </section>
      <section className="panel" aria-labelledby="inbox-title">
        <h2 id="inbox-title">Inbox</h2>
        {inbox.data?.data.length ? (
          <ul>{inbox.data.data.map((n) => <li key={n.id}>{n.subject ? `${n.subject}: ` : ''}{n.body} <small>({n.isRead ? 'read' : 'unread'}, {when(n.createdAt)})</small></li>)}</ul>
        ) : <p className="note">Nothing in their inbox.</p>}
      </section>
    </Page>
  );
}
