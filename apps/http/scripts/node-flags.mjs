// The Node flags the service runs with: `pnpm start` (package.json's start scripts, which
// test/service-bundle.test.ts holds to this list) and every test and benchmark that starts the
// service as a user would.
//
// --max-semi-space-size=32 (MB; Node 20's default is 16): a topic fan-out keeps a chunk of a thousand
// recipients (the rows read, their rendered messages, the statement's JSON) across a few awaits, three
// chunks at a time. In the default young generation they outlived two scavenges and were promoted, and
// garbage collection took a third of the service's CPU during a fan-out. With 32 MB most die young:
// `pnpm bench fanout` (100,000 subscribers, alternating runs) service CPU 5.3-5.8 s -> 4.4-4.5 s,
// peak RSS 213-217 MB -> 255 MB.
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];
