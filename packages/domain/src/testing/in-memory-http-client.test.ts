import { httpClientContract } from './http-client-contract';
import { InMemoryHttpClient, type Handler } from './in-memory-http-client';

httpClientContract('in memory', async () => {
  const origins = new Map<string, Handler>();
  return {
    client: (allowPrivateNetworks) => new InMemoryHttpClient(allowPrivateNetworks, origins),
    serve: async (handler) => new InMemoryHttpClient(false, origins).serve(handler),
  };
});
