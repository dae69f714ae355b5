// Every area of the service's wiring. Adding an area is its module and one line here; the order
// does not matter (bindings are resolved on first use).
export { activity } from './activity';
export { dashboard } from './dashboard';
export { delivery } from './delivery';
export { idempotency } from './idempotency';
export { inbox } from './inbox';
export { integrations } from './integrations';
export { receipts } from './receipts';
export { retention } from './retention';
export { overview } from './overview';
export { security } from './security';
export { subscribers } from './subscribers';
export { tenancy } from './tenancy';
export { topics } from './topics';
export { workflows } from './workflows';
export { workflowsAsCode } from './workflows-as-code';
export { webhooks } from './webhooks';
