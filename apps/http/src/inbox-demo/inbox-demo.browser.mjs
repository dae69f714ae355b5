// Browser entry of the development demo page: the official @novu/js UI Inbox against this Herald.
// Bundled at build time by scripts/build-inbox-demo.mjs; the page gives its settings in window.HERALD_INBOX.
import { NovuUI } from '@novu/js/ui';

const { applicationIdentifier, subscriberId, apiUrl } = window.HERALD_INBOX;
const ui = new NovuUI({ options: { applicationIdentifier, subscriberId, apiUrl, socketUrl: apiUrl } });
ui.mountComponent({ name: 'Inbox', element: document.getElementById('inbox'), props: {} });
