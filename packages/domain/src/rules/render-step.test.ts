import { describe, expect, it } from 'vitest';
import { signRequestBody, verifyRequestSignature } from './http-signature';
import { buildPreviewExample, collectVariables, mergeDeep } from './preview-example';
import { renderStepContent, type RenderVariables } from './render-step';

const variables: RenderVariables = {
  subscriber: { firstName: 'Ada', lastName: 'Lovelace' },
  payload: { orderId: 'A-17', total: 3, items: ['tea', 'cake'], at: '2026-03-04T05:06:07Z' },
  steps: {
    'digest-step': {
      eventCount: 3,
      events: [{ payload: { name: 'Bob' } }, { payload: { name: 'Cy' } }, { payload: { name: 'Di' } }],
    },
  },
};

describe('renderStepContent', () => {
  it.each([
    ['in_app', { subject: 'Hi {{subscriber.firstName}}', body: 'Order {{payload.orderId}} shipped' }, { subject: 'Hi Ada', body: 'Order A-17 shipped' }],
    ['email', { subject: '{{ payload.total | pluralize: "item" }}', body: '<p>{{ payload.items | join: ", " }}</p>' }, { subject: '3 items', body: '<p>tea, cake</p>' }],
    ['email', { subject: '{{ payload.missing | default: "fallback" }}' }, { subject: 'fallback', body: '' }],
    ['sms', { body: '{{ payload.at | date: "%Y-%m-%d %H:%M" }}' }, { body: '2026-03-04 05:06' }],
    ['chat', { body: '{{ steps.digest-step.events | digest: 2, "payload.name" }}' }, { body: 'Bob, Cy and 1 other' }],
    ['push', { subject: '{{ 1 | pluralize: "person", "people" }}', body: '{{ steps.digest-step.eventCount | pluralize: "person", "people" }}' }, { subject: '1 person', body: '3 people' }],
    ['push', { subject: 'x', body: '{% for e in steps.digest-step.events %}{{ e.payload.name }}{% unless forloop.last %}+{% endunless %}{% endfor %}' }, { subject: 'x', body: 'Bob+Cy+Di' }],
    ['delay', { type: 'regular', amount: 5, unit: 'minutes' }, { type: 'regular', amount: 5, unit: 'minutes' }],
    ['digest', { amount: 1, unit: 'hours', digestKey: 'payload.orderId' }, { amount: 1, unit: 'hours', digestKey: 'payload.orderId' }],
    ['custom', { note: 'for {{ subscriber.firstName }}', nested: { n: 1, s: '{{ payload.orderId }}' } }, { note: 'for Ada', nested: { n: 1, s: 'A-17' } }],
  ] as const)('%s renders %j', (type, controls, preview) => {
    expect(renderStepContent(type, controls, variables)).toEqual({ type, preview });
  });

  it('escapes payload and subscriber values in an email body, not in its subject or in text channels, and keeps subjects on one line', () => {
    const hostile = { payload: { name: '<img src=x onerror=alert(1)>', banner: '<b>Sale</b>', line: 'Hi\r\nBcc: victim@example.com' }, subscriber: { firstName: 'Tom & Jerry' } };
    const email = renderStepContent('email', { subject: '{{ payload.line }} {{ payload.name }}', body: '<p>{{ payload.name }} {{ subscriber.firstName }}</p>{{ payload.banner | raw }}' }, hostile);
    expect(email).toEqual({
      type: 'email',
      preview: { subject: 'Hi Bcc: victim@example.com <img src=x onerror=alert(1)>', body: '<p>&lt;img src=x onerror=alert(1)&gt; Tom &amp; Jerry</p><b>Sale</b>' },
    });
    expect(renderStepContent('push', { subject: '{{ payload.line }}', body: '{{ subscriber.firstName }}' }, hostile)).toEqual({ type: 'push', preview: { subject: 'Hi Bcc: victim@example.com', body: 'Tom & Jerry' } });
    expect(renderStepContent('sms', { body: '{{ subscriber.firstName }}: {{ payload.banner }}' }, hostile)).toEqual({ type: 'sms', preview: { body: 'Tom & Jerry: <b>Sale</b>' } });
    expect(renderStepContent('in_app', { body: '{{ subscriber.firstName }}' }, hostile)).toEqual({ type: 'in_app', preview: { body: 'Tom & Jerry' } });
    // The interface's switch for a step whose output is trusted as it is.
    const trusted = renderStepContent('email', { subject: 's', body: '{{ payload.banner }}', disableOutputSanitization: true }, hostile);
    expect(trusted).toEqual({ type: 'email', preview: { subject: 's', body: '<b>Sale</b>' } });
  });

  it('renders in_app actions, redirect and data, keeping targets as written', () => {
    const result = renderStepContent(
      'in_app',
      {
        body: 'b',
        avatar: 'https://cdn.test/{{ subscriber.firstName }}.png',
        primaryAction: { label: 'Open {{ payload.orderId }}', redirect: { url: '/orders/{{ payload.orderId }}', target: '_blank' } },
        data: { orderId: '{{ payload.orderId }}', count: 2 },
      },
      variables,
    );
    expect(result).toEqual({
      type: 'in_app',
      preview: {
        body: 'b',
        avatar: 'https://cdn.test/Ada.png',
        primaryAction: { label: 'Open A-17', redirect: { url: '/orders/A-17', target: '_blank' } },
        data: { orderId: 'A-17', count: 2 },
      },
    });
  });

  it('renders an http request with key/value bodies as JSON', () => {
    const result = renderStepContent(
      'http_request',
      { method: 'POST', url: 'https://hooks.test/{{ payload.orderId }}', headers: [{ key: 'X-Who', value: '{{ subscriber.firstName }}' }], body: [{ key: 'order', value: '{{ payload.orderId }}' }] },
      variables,
    );
    expect(result).toEqual({
      type: 'http_request',
      preview: { method: 'POST', url: 'https://hooks.test/A-17', headers: [{ key: 'X-Who', value: 'Ada' }], body: '{"order":"A-17"}' },
    });
  });

  it.each([
    ['a syntax error', '{{ payload.orderId ', /not closed/],
    ['an unknown filter', '{{ payload.orderId | shout }}', /undefined filter: shout/],
    ['a runaway loop', '{% for i in (1..100000000) %}{{ i }}{% endfor %}', /limit exceeded/],
  ])('returns %s as an error result, not a throw', (_, body, message) => {
    const result = renderStepContent('in_app', { subject: 'ok', body }, variables);
    expect(result).toMatchObject({ type: 'in_app', error: { title: 'Could not render body', message: expect.stringMatching(message), hint: expect.any(String) } });
    expect(result).not.toHaveProperty('preview');
  });

  it('renders undefined variables as empty and never reaches inherited properties', () => {
    expect(renderStepContent('sms', { body: '[{{ payload.nope }}][{{ payload.constructor }}]' }, variables)).toEqual({ type: 'sms', preview: { body: '[][]' } });
  });
});

describe('collectVariables and buildPreviewExample', () => {
  const controls = {
    subject: 'Hi {{ subscriber.firstName }} {{ subscriber.isOnline }}',
    body: '{{ payload.order.id }} {{ payload.plan }} {% for e in steps.digest-step.events %}{{ e.payload.x }}{% endfor %} {{ context.tenant.data.region }} {{ nope.x }}',
  };

  it('lists global variables once each, without loop locals', () => {
    expect(collectVariables(controls)).toEqual([
      ['subscriber', 'firstName'],
      ['subscriber', 'isOnline'],
      ['payload', 'order', 'id'],
      ['payload', 'plan'],
      ['steps', 'digest-step', 'events'],
      ['context', 'tenant', 'data', 'region'],
      ['nope', 'x'],
    ]);
  });

  it('builds placeholders, schema values, sample digest events and typed subscriber fields', () => {
    const schema = { type: 'object', properties: { plan: { type: 'string', default: 'pro' } } };
    const example = buildPreviewExample(collectVariables(controls), schema);
    expect(example).toEqual({
      subscriber: { firstName: '{{subscriber.firstName}}', isOnline: true },
      payload: { order: { id: '{{payload.order.id}}' }, plan: 'pro' },
      steps: { 'digest-step': { events: [expect.objectContaining({ id: 'event-1', payload: {} }), expect.objectContaining({ id: 'event-2' })], eventCount: 2 } },
      context: { tenant: { id: '{{context.tenant.id}}', data: { region: '{{context.tenant.data.region}}' } } },
    });
  });

  it('lets given values win over the example, object by object', () => {
    const merged = mergeDeep({ payload: { a: '{{payload.a}}', b: '{{payload.b}}' }, subscriber: { firstName: 'x' } }, { payload: { a: 1 } });
    expect(merged).toEqual({ payload: { a: 1, b: '{{payload.b}}' }, subscriber: { firstName: 'x' } });
  });
});

describe('signRequestBody', () => {
  it('signs the timestamp and body, and a receiver can verify it', () => {
    const header = signRequestBody('secret', '{"a":1}', 1_700_000_000_000);
    expect(header).toMatch(/^t=1700000000000,v1=[0-9a-f]{64}$/);
    expect(verifyRequestSignature('secret', '{"a":1}', header)).toBe(true);
    expect(verifyRequestSignature('secret', '{"a":2}', header)).toBe(false);
    expect(verifyRequestSignature('other', '{"a":1}', header)).toBe(false);
    expect(verifyRequestSignature('secret', '{"a":1}', header, 1000, 1_700_000_005_000)).toBe(false);
    expect(verifyRequestSignature('secret', '{"a":1}', 'garbage')).toBe(false);
  });
});
