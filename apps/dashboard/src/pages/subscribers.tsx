import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { Alert, Field, Page, useLoad, when } from '../components/ui';

const BY = { name: 'Name', email: 'Email', subscriberId: 'Subscriber id', phone: 'Phone' } as const;
type By = keyof typeof BY;

/** Subscribers, searched by name (any part), email or id prefix, phone; pages by cursor. */
export function SubscribersPage() {
  const [params, setParams] = useSearchParams();
  const by = (params.get('by') as By | null) ?? 'name';
  const q = params.get('q') ?? '';
  const [cursor, setCursor] = useState<{ after?: string; before?: string }>({});
  const { data, error } = useLoad(() => api.GET('/v2/subscribers', { params: { query: { limit: 20, ...cursor, ...(q ? { [by]: q } : {}) } } }), [by, q, cursor.after, cursor.before]);

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setCursor({});
    setParams({ by: String(form.get('by')), q: String(form.get('q') ?? '') });
  }

  return (
    <Page title="Subscribers">
      <form role="search" className="filters" onSubmit={search}>
        <Field label="Search by">
          <select name="by" defaultValue={by}>
            {Object.entries(BY).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </Field>
        <Field label="Search"><input name="q" type="search" defaultValue={q} /></Field>
        <button type="submit">Search</button>
      </form>
      <Alert text={error} />
      {data ? <p className="note">{data.totalCount}{data.totalCountCapped ? '+' : ''} subscribers</p> : null}
      <table>
        <thead>
          <tr><th>Subscriber id</th><th>Name</th><th>Email</th><th>Phone</th><th>Created</th></tr>
        </thead>
        <tbody>
          {data?.data.map((s) => (
            <tr key={s._id}>
              <td><Link to={`/subscribers/${encodeURIComponent(s.subscriberId)}`}>{s.subscriberId}</Link></td>
              <td>{[s.firstName, s.lastName].filter(Boolean).join(' ') || '—'}</td>
              <td>{s.email ?? '—'}</td>
              <td>{s.phone ?? '—'}</td>
              <td>{when(s.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="pager">
        <button type="button" className="secondary" disabled={!data?.previous} onClick={() => setCursor({ before: data!.previous! })}>Previous</button>
        <button type="button" className="secondary" disabled={!data?.next} onClick={() => setCursor({ after: data!.next! })}>Next</button>
      </div>
    </Page>
  );
}
