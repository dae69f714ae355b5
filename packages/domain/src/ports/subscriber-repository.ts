import { token } from '../shared/token';
import type { ChannelSettings, Subscriber, SubscriberAttributes, SubscriberInput } from '../entities/subscriber';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const SubscriberRepository = token<SubscriberRepository>('SubscriberRepository');

export interface SubscriberSearch {
  email?: string;
  /** Matches first name, last name or "first last". */
  name?: string;
  phone?: string;
  subscriberId?: string;
}

export type SubscriberOrderBy = 'createdAt' | 'updatedAt' | 'subscriberId';

export interface UpsertManyResult {
  created: string[];
  updated: string[];
}

export interface SubscriberRepository {
  /** null when no subscriber has that external id in the environment. */
  findById(environmentId: string, subscriberId: string): Promise<Subscriber | null>;
  /** Inserts, or returns null when the subscriberId already exists (nothing is changed then). */
  insert(environmentId: string, input: SubscriberInput): Promise<Subscriber | null>;
  /** Applies the defined attributes; null when not found. Bumps the version. */
  update(environmentId: string, subscriberId: string, changes: SubscriberAttributes & { channels?: ChannelSettings[] }): Promise<Subscriber | null>;
  /** Creates or updates each input in one set-based statement; reports which ids existed before. */
  upsertMany(environmentId: string, inputs: SubscriberInput[]): Promise<UpsertManyResult>;
  /** Records presence and its time as a change (version and update time move on); null when not found. */
  setOnline(environmentId: string, subscriberId: string, isOnline: boolean, at: Date): Promise<Subscriber | null>;
  /** Removes the subscriber with its topic subscriptions, preferences and endpoints; false when not found. */
  delete(environmentId: string, subscriberId: string): Promise<boolean>;
  /** Drops these push device tokens from every channel setting of the subscriber (by row id); returns how many were removed. */
  removeDeviceTokens(environmentId: string, subscriberRowId: string, tokens: string[]): Promise<number>;
  /**
   * Keyset pages in `orderBy` order, ties by id (subscriberId compares code units: upper case first).
   * email, phone and subscriberId match as prefixes; every match is case-sensitive.
   */
  search(environmentId: string, filter: SubscriberSearch, page: CursorQuery<SubscriberOrderBy>): Promise<CursorPage<Subscriber>>;
}
