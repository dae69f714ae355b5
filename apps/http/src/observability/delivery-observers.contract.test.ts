import { deliveryObserverContract } from '@herald/domain/testing/delivery-observer-contract';
import pino from 'pino';
import { DeliveryLogObserver } from './delivery-log-observer';
import { DeliveryMetricsObserver } from './delivery-metrics-observer';
import { HeraldMetrics, type BacklogReader } from './metrics';

const noBacklog: BacklogReader = { read: async () => ({ dueSteps: 0, lagSeconds: 0, delayedSteps: 0, openFanouts: 0, openDigests: null }) };

deliveryObserverContract('metrics', async () => new DeliveryMetricsObserver(new HeraldMetrics(noBacklog)));
deliveryObserverContract('log', async () => new DeliveryLogObserver(pino({ level: 'silent' })));
