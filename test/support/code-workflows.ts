import { workflow } from '@novu/framework';

/** Workflows a team defines in its own code with @novu/framework, as the bridge in the tests serves them. */
const orderPayload = {
  type: 'object',
  properties: { orderId: { type: 'string' }, items: { type: 'number' } },
  required: ['orderId', 'items'],
  additionalProperties: false,
} as const;

/** delay -> digest -> custom (computes a total from the digested events) -> in-app and email using it. */
export const orderDigest = workflow(
  'order-digest',
  async ({ step, payload }) => {
    await step.delay('wait', async () => ({ type: 'regular', amount: 1, unit: 'seconds' }));
    const digest = await step.digest('collect', async () => ({ amount: 3, unit: 'seconds' }));
    const score = await step.custom(
      'score',
      async () => ({ orders: digest.events.length, items: digest.events.reduce((n, e) => n + Number(e.payload.items), 0) }),
      { outputSchema: { type: 'object', properties: { orders: { type: 'number' }, items: { type: 'number' } }, required: ['orders', 'items'], additionalProperties: false } },
    );
    await step.inApp('bell', async (controls) => ({ subject: controls.subject, body: `${score.orders} orders, ${score.items} items (last ${payload.orderId})` }), {
      controlSchema: { type: 'object', properties: { subject: { type: 'string', default: 'Your orders' } }, additionalProperties: false },
    });
    // What the code returns for the integration's provider (nodemailer) reaches it, over the trigger's overrides.
    await step.email('mail', async () => ({ subject: `${score.orders} orders shipped`, body: `<p>${score.items} items are on their way</p>` }), {
      providers: { nodemailer: async () => ({ replyTo: 'support@shop.test', headers: { 'X-Order-Count': String(score.orders) } }) },
    });
  },
  { payloadSchema: orderPayload, name: 'Order digest', tags: ['orders'] },
);

/** One in-app step: the smallest workflow, for failures and retries. */
export const ping = workflow(
  'ping',
  async ({ step, payload }) => {
    await step.inApp('bell', async () => ({ body: `pong ${payload.n}` }));
  },
  { payloadSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } },
);

/** Skipped by its code unless the payload asks for it. */
export const optional = workflow(
  'optional',
  async ({ step, payload }) => {
    await step.inApp('bell', async () => ({ body: 'shown' }), { skip: () => payload.show !== true });
  },
  // Subscribers may not turn it off, and it sends no email unless they turn that on.
  { preferences: { all: { readOnly: true }, channels: { email: { enabled: false } } } },
);

/** In-app, a wait, then a reminder that says what the subscriber did with the first message and how long the wait held. */
export const reminder = workflow('reminder', async ({ step }) => {
  const bell = await step.inApp('bell', async () => ({ body: 'Your invoice is ready' }));
  const wait = await step.delay('wait', async () => ({ type: 'regular', amount: 2, unit: 'seconds' }));
  await step.inApp('nudge', async () => ({
    body: `read: ${bell.read}, seen: ${bell.seen}, read at: ${bell.lastReadDate ? 'a time' : 'none'}, waited: ${wait.duration >= 2_000 && wait.duration < 60_000 ? 'the delay' : wait.duration}`,
  }));
});

/** Its code throws: the framework answers 502 StepExecutionFailedError with the error's message. */
export const broken = workflow('broken', async ({ step }) => {
  await step.inApp('bell', async () => {
    throw new Error('inventory service unreachable');
  });
});

/** At most one bell a day per subscriber: the second trigger stops at the throttle. */
export const limited = workflow('limited', async ({ step }) => {
  await step.throttle('limit', async () => ({ type: 'fixed', amount: 1, unit: 'days', threshold: 1 }));
  await step.inApp('bell', async () => ({ body: 'once a day' }));
});
