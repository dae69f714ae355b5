import type { JsonObject } from '../../../entities/delivery';
import type { RunnableJob } from '../../../ports/job-repository';
import { renderedStepContent, renderStepContent, type ActionContent } from '../../../rules/render-step';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

function action(value: ActionContent | undefined): JsonObject | null {
  if (!value?.label) return null;
  return { label: value.label, isCompleted: false, ...(value.redirect ? { redirect: value.redirect } : {}) };
}

/**
 * The detail of every in-app message stored, followed by the subscriber's id. Storage that keeps a
 * step's outcome compactly may leave this one detail out and derive it when read.
 */
export const INBOX_STORED_DETAIL = 'in-app message stored in the inbox of ';

/** Renders the in-app controls (the same renderer as the step preview) and stores the result in the inbox. */
export class InAppStepHandler implements StepHandler {
  constructor(private readonly providerId: string) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const rendered = job.step.rendered ? renderedStepContent('in_app', job.step.controlValues) : renderStepContent('in_app', job.step.controlValues, variables);
    if ('error' in rendered) return failed(`template error: ${rendered.error.title}: ${rendered.error.message}`, 'Payload');
    if (rendered.type !== 'in_app') return failed(`renderer returned ${rendered.type} content for an in_app step`);
    const c = rendered.preview;
    if (!c.body?.trim()) return failed('template error: the rendered in-app body is empty', 'Payload');
    return {
      status: 'completed',
      providerId: this.providerId,
      details: [{ status: 'Success', source: 'Internal', detail: INBOX_STORED_DETAIL + job.subscriber.subscriberId, providerId: this.providerId }],
      message: {
        channel: 'in_app',
        providerId: this.providerId,
        integrationId: null,
        // Its subscriber's inbox: nothing to store (the activity log shows it as {subscriberId}).
        destination: null,
        subject: c.subject || null,
        body: c.body,
        avatar: c.avatar || null,
        primaryAction: action(c.primaryAction),
        secondaryAction: action(c.secondaryAction),
        redirect: c.redirect ? { ...c.redirect } : null,
        data: c.data ?? null,
        status: 'sent',
      },
    };
  }
}
