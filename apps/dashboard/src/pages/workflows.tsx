import { Link } from 'react-router';
import { api } from '../api/client';
import { Alert, Page, useLoad, when } from '../components/ui';
import { useSession } from '../session';

export function WorkflowsPage() {
  const { canWrite } = useSession();
  const { data, error } = useLoad(() => api.GET('/v2/workflows', { params: { query: { limit: 100 } } }), []);
  return (
    <Page title="Workflows" actions={canWrite ? <Link className="button" to="/workflows/new">New workflow</Link> : undefined}>
      <Alert text={error} />
      <table>
        <thead>
          <tr><th>Name</th><th>Identifier</th><th>Status</th><th>Steps</th><th>Last triggered</th></tr>
        </thead>
        <tbody>
          {data?.data.workflows.map((w) => (
            <tr key={w._id}>
              <td><Link to={`/workflows/${w.workflowId}`}>{w.name}</Link></td>
              <td><code>{w.workflowId}</code></td>
              <td>{w.status}</td>
              <td>{(w.stepTypeOverviews as string[]).join(', ')}</td>
              <td>{when(w.lastTriggeredAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.data.workflows.length === 0 ? <p className="note">No workflows yet.</p> : null}
    </Page>
  );
}
