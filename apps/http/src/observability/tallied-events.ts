import type { EventRepository, OverviewTally } from '@herald/domain';

/**
 * The event repository with each accepted trigger told to the Overview's tally (a map update after
 * the commit: no statement of its own). A decorator of the port, in the composition root.
 */
export function talliedEvents(inner: EventRepository, tally: OverviewTally): EventRepository {
  return {
    findWorkflow: (environmentId, identifier) => inner.findWorkflow(environmentId, identifier),
    loadFanout: (eventId) => inner.loadFanout(eventId),
    fanoutCandidates: (event, lane, limit) => inner.fanoutCandidates(event, lane, limit),
    fanoutExceeds: (event, lane, count) => inner.fanoutExceeds(event, lane, count),
    commitFanoutChunk: (event, accepted, progress, inline) => inner.commitFanoutChunk(event, accepted, progress, inline),
    async accept(acceptance, runInline) {
      const outcome = await inner.accept(acceptance, runInline);
      if (outcome.accepted) tally.triggered(acceptance.environmentId);
      return outcome;
    },
  };
}
