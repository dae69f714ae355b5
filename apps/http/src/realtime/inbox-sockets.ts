import type { Server as HttpServer } from 'node:http';
import { DomainError, type AuthenticateSubscriberToken, type InboxFeed, type InboxFeedEvent, type ReadLiveInboxChanges, type SubscriberClaims } from '@herald/domain';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { InboxOrigins } from '../platform/inbox-cors';
import { presentSocketMessage } from './socket-message';

export interface InboxSocketsDependencies {
  authenticate: AuthenticateSubscriberToken;
  origins: InboxOrigins;
  feed: InboxFeed;
  readChanges: ReadLiveInboxChanges;
  logger: Logger;
}

/** How long this process still counts as holding sockets after its last one left (a reload reconnects within it). */
const PRESENCE_LINGER_MS = 30_000;
/** How often open sockets' tokens are checked again: a change of the environment's Inbox security drops them. */
const RECHECK_MS = 5_000;

const room = (environmentId: string, subscriberRef: string) => `${environmentId}:${subscriberRef}`;

/**
 * The Inbox's live channel: socket.io (what `@novu/js` opens for a self-hosted socketUrl) on the
 * HTTP server's own port, at /socket.io. A socket is authorised by its subscriber token and joins
 * its subscriber's room; whatever the feed carries for the subscribers held here is read in one
 * batch and pushed as `notification_received`, `unread_count_changed` and `unseen_count_changed`. While it holds sockets
 * it tells the feed so (see `InboxFeed.setPresent`): before a socket is let in, and no longer
 * once the last one has been gone for a while.
 */
export class InboxSockets {
  private readonly io: Server;
  private readonly unsubscribe: () => void;
  /** Sockets authorised and not yet in the namespace (they join it on the next tick). */
  private arriving = 0;
  private presenceCheck: NodeJS.Timeout | undefined;
  private readonly recheck: NodeJS.Timeout;
  private closed = false;

  constructor(server: HttpServer, private readonly deps: InboxSocketsDependencies) {
    this.io = new Server(server, { path: '/socket.io', serveClient: false, transports: ['websocket', 'polling'], pingInterval: 25_000 });
    this.io.use((socket, next) => {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      this.authorise(typeof token === 'string' ? token : undefined, socket.handshake.headers.origin, socket.handshake.headers.host)
        .then(async (claims) => {
          socket.data.claims = claims;
          socket.data.room = room(claims.environmentId, claims.subscriberRef);
          this.arriving++;
          try {
            await this.deps.feed.setPresent(true);
          } finally {
            this.arriving--;
          }
          next();
        })
        .catch((error: unknown) => next(new Error(error instanceof DomainError ? error.message : 'unauthorised')))
        .finally(() => this.checkPresenceLater());
    });
    this.io.on('connection', (socket) => {
      void socket.join(socket.data.room as string);
      socket.on('disconnect', () => this.checkPresenceLater());
    });
    this.unsubscribe = deps.feed.subscribe((events) => void this.push(events));
    this.recheck = setInterval(() => void this.dropRevoked(), RECHECK_MS).unref();
  }

  /** How many sockets this process holds. */
  get connections(): number {
    return this.io.engine.clientsCount;
  }

  /** Drops every socket (the HTTP server, closed by its owner, would otherwise wait for them). */
  close(): void {
    this.closed = true;
    clearTimeout(this.presenceCheck);
    clearInterval(this.recheck);
    this.unsubscribe();
    this.io.disconnectSockets(true);
    this.io.engine.close();
  }

  /** Re-states this process's presence a while after sockets left (or one was refused, or never opened). */
  private checkPresenceLater(): void {
    clearTimeout(this.presenceCheck);
    if (this.closed) return;
    this.presenceCheck = setTimeout(() => void this.deps.feed.setPresent(this.io.sockets.sockets.size + this.arriving > 0), PRESENCE_LINGER_MS).unref();
  }

  private async authorise(token: string | undefined, origin: string | undefined, host: string | undefined): Promise<SubscriberClaims> {
    const claims = await this.deps.authenticate.execute(token ? `Bearer ${token}` : undefined);
    const own = host ? [`http://${host}`, `https://${host}`] : [];
    await this.deps.origins.check(claims.environmentId, origin && !own.includes(origin) ? origin : undefined);
    return claims;
  }

  /** Disconnects the sockets whose token the environment's Inbox security no longer accepts. */
  private async dropRevoked(): Promise<void> {
    for (const socket of this.io.sockets.sockets.values()) {
      const claims = socket.data.claims as SubscriberClaims | undefined;
      // Only a refusal drops a socket: a failed read of the environment leaves it for the next round.
      if (claims) await this.deps.authenticate.check(claims).catch((error: unknown) => error instanceof DomainError && socket.disconnect(true));
    }
  }

  private async push(events: InboxFeedEvent[]): Promise<void> {
    const rooms = this.io.sockets.adapter.rooms;
    const held = events.filter((e) => rooms.has(room(e.environmentId, e.subscriberRef)));
    if (!held.length) return;
    try {
      for (const change of await this.deps.readChanges.execute(held)) {
        const to = this.io.to(room(change.environmentId, change.subscriberRef));
        for (const notification of change.notifications) to.emit('notification_received', { message: presentSocketMessage(notification) });
        to.emit('unread_count_changed', { counts: change.unreadCount });
        to.emit('unseen_count_changed', { unseenCount: change.unseenCount });
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'pushing inbox changes to sockets failed');
    }
  }
}
