/** Settings the page hands to its bundled script, which also gets `apiUrl`: the origin the browser loaded the page from. */
export interface DemoSettings {
  applicationIdentifier: string;
  subscriberId: string;
  environment: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo page: the Inbox bell, and the one request that makes a notification appear in it. */
export function demoPage(settings: DemoSettings, serviceName: string): string {
  // JSON inside <script>: `<` escaped so no value can close the tag.
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  const subscriber = escapeHtml(settings.subscriberId);
  const trigger = escapeHtml(
    `/v1/events/trigger -H 'Authorization: ApiKey <development key>' -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify({ name: '<workflow id>', to: settings.subscriberId, payload: {} })}'`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(serviceName)} · Inbox demo</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1f2328; }
  header { display: flex; align-items: center; justify-content: space-between; padding: 12px 24px; background: #fff; border-bottom: 1px solid #e3e5e8; }
  main { max-width: 760px; margin: 32px auto; padding: 0 24px; line-height: 1.5; }
  pre { background: #fff; border: 1px solid #e3e5e8; padding: 12px; overflow-x: auto; white-space: pre-wrap; }
</style>
</head>
<body>
<header><strong>${escapeHtml(serviceName)} Inbox demo</strong><div id="inbox"></div></header>
<main>
  <p>The official <code>@novu/js</code> Inbox, signed in as subscriber <code>${subscriber}</code> of the
  <code>${escapeHtml(settings.environment)}</code> environment. Trigger a workflow with an in-app step to this subscriber and
  the notification appears in the bell without a reload:</p>
  <pre>curl -X POST <span class="api-url"></span>${trigger}</pre>
  <p>Another subscriber: <code>/inbox/demo?subscriberId=someone-else</code>.</p>
</main>
<script>
  // Herald is wherever the browser loaded this page from: never a URL built from the request's Host header.
  window.HERALD_INBOX = Object.assign(${json}, { apiUrl: location.origin });
  for (const e of document.querySelectorAll('.api-url')) e.textContent = location.origin;
</script>
<script type="module" src="/inbox/demo/inbox-demo.js"></script>
</body>
</html>
`;
}
