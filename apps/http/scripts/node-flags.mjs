// The Node flags the service runs with: `pnpm start` (package.json's start scripts, which
// test/service-bundle.test.ts holds to this list) and every test and benchmark that starts the
// service as a user would.
//
// --max-semi-space-size=32 (MB; Node 20's default is 16): a topic fan-out keeps a chunk of a thousand
// recipients (the rows read, their rendered messages, the statement's JSON) across a few awaits, three
// chunks at a time. In the default young generation they outlive two scavenges and are promoted, and
// garbage collection takes a third of the service's CPU during a fan-out. With 32 MB most die young:
// under `pnpm bench fanout` (100,000 subscribers) the service spends about a fifth less CPU, for
// about 40 MB more peak RSS.
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];
