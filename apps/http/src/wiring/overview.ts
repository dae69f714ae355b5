import { SqlOverviewRepository } from '@herald/adapters';
import { DeliveryObserver, FlushOverviewCounts, GetOverview, OverviewRepository, OverviewTally, systemClock } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * The dashboard's Overview: counts summed in memory as triggers are accepted (wiring/delivery.ts
 * tells the tally) and steps recorded (a delivery observer), flushed to a rollup the charts read.
 */
export const overview: Wiring = (bind, { db }) => {
  const tally = new OverviewTally();
  bind.value(OverviewTally, tally);
  bind.add(DeliveryObserver, tally);
  bind.value(OverviewRepository, new SqlOverviewRepository(db.pool));
  bind.construct(FlushOverviewCounts, [OverviewTally, OverviewRepository]);
  bind.factory(GetOverview, [OverviewRepository], (rollup) => new GetOverview(rollup, systemClock));
};
