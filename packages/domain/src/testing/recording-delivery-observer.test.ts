import { expect, it } from 'vitest';
import { DeliveryObservers } from '../ports/delivery-observer';
import { InboxLiveObserver } from '../use-cases/inbox-session/inbox-live-observer';
import { deliveryObserverContract, sampleOutcomes } from './delivery-observer-contract';
import { InMemoryInboxFeed } from './in-memory-inbox-feed';
import { RecordingDeliveryObserver } from './recording-delivery-observer';

deliveryObserverContract('recording', async () => new RecordingDeliveryObserver());
deliveryObserverContract('every observer in turn', async () => new DeliveryObservers([new RecordingDeliveryObserver(), { recorded: () => { throw new Error('broken'); } }]));
deliveryObserverContract('live inbox, heard', async () => {
  const feed = new InMemoryInboxFeed();
  await feed.setPresent(true);
  return new InboxLiveObserver(feed);
});

it('keeps each slice as it heard it', () => {
  const observer = new RecordingDeliveryObserver();
  const slice = sampleOutcomes();
  observer.recorded(slice);
  slice.pop();
  expect(observer.slices.map((s) => s.length)).toEqual([5]);
});
