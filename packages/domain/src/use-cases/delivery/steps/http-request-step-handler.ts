import type { JsonObject } from '../../../entities/delivery';
import type { HttpClient } from '../../../ports/http-client';
import type { RunnableJob } from '../../../ports/job-repository';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { signRequestBody } from '../../../rules/http-signature';
import { renderStepContent } from '../../../rules/render-step';
import { SharedReads } from '../../../shared/shared-reads';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

export const HTTP_STEP_TIMEOUT_MS = 10_000;

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Calls the step's URL with the rendered method, headers and body, signed with the environment's
 * secret (`<service>-signature` header), within 10 s. The response becomes `steps.<stepId>`.
 * A failure stops the workflow unless the step sets `continueOnFailure`.
 */
export class HttpRequestStepHandler implements StepHandler {
  // Read at most once a minute per environment, so a rotated secret is picked up; a failed read or a missing secret is not kept.
  private readonly secrets = new SharedReads<string | undefined>(60_000, (secret) => secret !== undefined);

  constructor(
    private readonly http: HttpClient,
    private readonly tenancy: TenancyRepository,
    private readonly serviceName: string,
  ) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const continueOnFailure = job.step.controlValues.continueOnFailure === true;
    const stop = (result: StepResult): StepResult => ({ ...result, halt: !continueOnFailure });
    const rendered = renderStepContent('http_request', job.step.controlValues, variables);
    if ('error' in rendered) return stop(failed(`template error: ${rendered.error.title}: ${rendered.error.message}`, 'Payload'));
    if (rendered.type !== 'http_request') return stop(failed(`renderer returned ${rendered.type} content for an http_request step`));
    const { method, url, headers, body } = rendered.preview;
    const secret = await this.secret(job.environmentId);
    if (!secret) return stop(failed('the environment has no signing secret'));
    const sendsBody = !['GET', 'HEAD'].includes(method.toUpperCase());
    try {
      const response = await this.http.request({
        method,
        url,
        headers: {
          ...(sendsBody ? { 'content-type': 'application/json' } : {}),
          ...Object.fromEntries(headers.map((h) => [h.key.toLowerCase(), h.value])),
          [`${this.serviceName}-signature`]: signRequestBody(secret, sendsBody ? body : '', Date.now()),
        },
        body: sendsBody ? body : undefined,
        timeoutMs: HTTP_STEP_TIMEOUT_MS,
      });
      const output: JsonObject = { status: response.status, headers: response.headers, body: parse(response.body) };
      const ok = response.status >= 200 && response.status < 300;
      return {
        status: ok ? 'completed' : 'failed',
        output,
        halt: !ok && !continueOnFailure,
        details: [
          {
            status: ok ? 'Success' : 'Failed',
            source: 'Webhook',
            detail: `${method.toUpperCase()} ${url} answered ${response.status}`,
            raw: response.body.slice(0, 4000),
          },
        ],
      };
    } catch (error) {
      return stop(failed(`http request failed: ${(error as Error).message}`, 'Webhook'));
    }
  }

  private secret(environmentId: string): Promise<string | undefined> {
    return this.secrets.get(environmentId, () => this.tenancy.findEnvironment(environmentId).then((e) => e?.signingSecret));
  }
}
