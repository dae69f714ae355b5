import type { ProviderFake } from './provider-fake';

/**
 * The overrides case of a push provider's fixture: the trigger's `overrides.push` title, data, sound
 * and badge, and the same on the wire beside the rendered body.
 */
export function pushOverrides(): ProviderFake['overrides'] {
  const given = { title: 'Shipped', data: { orderId: 'A-1' }, sound: 'chime', badge: 3 };
  return { given, wire: { body: 'Order A-1 is on its way', extra: given } };
}
