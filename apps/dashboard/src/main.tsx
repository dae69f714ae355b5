import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Layout } from './layout';
import { ActivityPage } from './pages/activity';
import { NotificationPage } from './pages/notification';
import { IntegrationsPage } from './pages/integrations';
import { OverviewPage } from './pages/overview';
import { SettingsPage } from './pages/settings';
import { SignInPage } from './pages/sign-in';
import { SubscriberPage } from './pages/subscriber';
import { SubscribersPage } from './pages/subscribers';
import { TopicsPage } from './pages/topics';
import { WorkflowPage } from './pages/workflow';
import { WorkflowsPage } from './pages/workflows';
import { SessionProvider } from './session';

function App() {
  return (
    <BrowserRouter basename="/dashboard">
      <Routes>
        <Route path="/sign-in" element={<SignInPage mode="sign-in" />} />
        <Route path="/setup" element={<SignInPage mode="setup" />} />
        <Route path="/accept-invitation" element={<SignInPage mode="accept" />} />
        <Route element={<SessionProvider><Layout /></SessionProvider>}>
          <Route index element={<OverviewPage />} />
          <Route path="/activity" element={<ActivityPage />} />
          <Route path="/activity/:notificationId" element={<NotificationPage />} />
          <Route path="/workflows" element={<WorkflowsPage />} />
          <Route path="/workflows/:workflowId" element={<WorkflowPage />} />
          <Route path="/subscribers" element={<SubscribersPage />} />
          <Route path="/subscribers/:subscriberId" element={<SubscriberPage />} />
          <Route path="/topics" element={<TopicsPage />} />
          <Route path="/integrations" element={<IntegrationsPage />} />
          <Route path="/settings" element={<SettingsPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
