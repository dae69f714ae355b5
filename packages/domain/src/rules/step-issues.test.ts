import { describe, expect, it } from 'vitest';
import type { ChannelType, WorkflowStepType } from '../entities/channel';
import type { Workflow } from '../entities/workflow';
import { computeStepIssues, evaluateWorkflow } from './step-issues';

const allChannels = new Set<ChannelType>(['in_app', 'email', 'sms', 'chat', 'push']);
const issuesOf = (type: WorkflowStepType, controlValues: Record<string, unknown>, previous: string[] = []) =>
  computeStepIssues({ type, controlValues }, { activeChannels: allChannels, previousStepIds: new Set(previous) });

describe('computeStepIssues', () => {
  it.each([
    ['in_app', { body: 'Hi {{ subscriber.firstName }} {{ payload.x }} {{ context.t.id }} {{ env.URL }} {{ actor.firstName }}' }],
    ['email', { subject: 's', body: 'b' }],
    ['digest', { type: 'timed', cron: '0 9 * * *' }],
    ['delay', { amount: 1, unit: 'hours' }],
    ['throttle', { type: 'dynamic', dynamicKey: 'payload.k' }],
    ['http_request', { method: 'POST', url: 'https://x.test/{{ payload.id }}' }],
    ['custom', {}],
  ] as const)('%s %j has none', (type, controls) => {
    expect(issuesOf(type, controls)).toBeNull();
  });

  it.each([
    ['in_app', {}, { body: [{ issueType: 'MISSING_VALUE', variableName: 'body', message: 'body is required' }] }],
    ['email', { subject: '  ', body: 'b' }, { subject: [expect.objectContaining({ issueType: 'MISSING_VALUE' })] }],
    ['digest', { amount: 1 }, { unit: [expect.objectContaining({ issueType: 'MISSING_VALUE' })] }],
    ['http_request', { method: 'GET', url: 'ftp://x' }, { url: [expect.objectContaining({ issueType: 'INVALID_URL' })] }],
    ['in_app', { body: 'b', avatar: 'not a url', redirect: { url: '/ok/{{ payload.id }}' } }, { avatar: [expect.objectContaining({ issueType: 'INVALID_URL' })] }],
    ['in_app', { body: 'b', primaryAction: { redirect: { url: '/x' } } }, { 'primaryAction.label': [expect.objectContaining({ issueType: 'MISSING_VALUE' })] }],
    [
      'sms',
      { body: '{{ secrets.key }} {{ payload.ok }}' },
      { body: [{ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'secrets.key', message: expect.stringMatching(/payload, subscriber, steps/) }] },
    ],
    ['chat', { body: '{{ steps.later.events }}' }, { body: [expect.objectContaining({ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'steps.later.events' })] }],
    ['sms', { body: '{{ payload.x ' }, { body: [expect.objectContaining({ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', message: expect.stringMatching(/not a valid Liquid template/) })] }],
    ['sms', { body: '{{ payload.x | shout }}' }, { body: [expect.objectContaining({ issueType: 'INVALID_FILTER_ARG_IN_VARIABLE' })] }],
  ] as const)('%s %j', (type, controls, issues) => {
    expect(issuesOf(type, controls)).toEqual({ controls: issues });
  });

  it('accepts steps.<id> of an earlier step', () => {
    expect(issuesOf('email', { subject: 's', body: '{{ steps.digest.events | size }}' }, ['digest'])).toBeNull();
  });

  it('reports a channel step without an active integration, keyed by channel', () => {
    const issues = computeStepIssues({ type: 'sms', controlValues: { body: 'x' } }, { activeChannels: new Set(['email']), previousStepIds: new Set() });
    expect(issues).toEqual({ integration: { sms: [{ issueType: 'MISSING_INTEGRATION', message: 'No active sms integration in this environment' }] } });
  });
});

describe('evaluateWorkflow', () => {
  const workflow = (active: boolean, steps: Array<[WorkflowStepType, Record<string, unknown>]>): Workflow =>
    ({ active, steps: steps.map(([type, controlValues], i) => ({ id: `id${i}`, stepId: `s${i}`, name: `s${i}`, type, controlValues, skip: null })) }) as Workflow;

  it.each([
    [true, [['sms', { body: 'x' }]], 'ACTIVE'],
    [false, [['sms', { body: 'x' }]], 'INACTIVE'],
    [true, [], 'ACTIVE'],
    [true, [['sms', { body: 'x' }], ['email', { subject: 's' }]], 'ERROR'],
    [false, [['in_app', {}]], 'ERROR'],
  ] as const)('active=%s steps=%j -> %s', (active, steps, status) => {
    expect(evaluateWorkflow(workflow(active, steps as never), allChannels).status).toBe(status);
  });

  it('lets a step read only the steps before it', () => {
    const evaluated = evaluateWorkflow(
      workflow(true, [
        ['sms', { body: '{{ steps.s1.events }}' }],
        ['digest', { amount: 1, unit: 'hours' }],
        ['email', { subject: '{{ steps.s1.eventCount }}', body: 'b' }],
      ]),
      allChannels,
    );
    expect(evaluated.steps.map((s) => s.issues !== null)).toEqual([true, false, false]);
  });
});
