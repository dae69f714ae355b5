import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

/**
 * An https.Agent that connects every request to one operator-set origin instead of the host in the
 * URL, for SDKs without a base-URL option (firebase-admin): `http:` origins are spoken to in plain
 * HTTP (a loopback fake), `https:` ones over TLS checked against their own name. Never built from
 * tenant input: only from HERALD_PROVIDER_ENDPOINTS.
 */
export function endpointAgent(origin: string): https.Agent {
  const target = new URL(origin);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname;
  class EndpointAgent extends https.Agent {
    override createConnection(_options: unknown, callback?: (error: Error | null, socket: net.Socket) => void): net.Socket {
      const socket = target.protocol === 'https:' ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
      callback?.(null, socket);
      return socket;
    }
  }
  return new EndpointAgent({ keepAlive: false });
}
