import type { FieldErrors } from '../errors';

export interface Topic {
  id: string;
  environmentId: string;
  /** Unique per environment. */
  key: string;
  name: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TopicInput {
  key: string;
  /** undefined leaves an existing name as it is. */
  name?: string;
}

export const TOPIC_KEY_MAX_LENGTH = 255;

/** Semantic checks of a topic key and name; an empty result means valid. */
export function validateTopicInput(input: Partial<TopicInput>): FieldErrors {
  const errors: FieldErrors = {};
  if (input.key !== undefined) {
    if (input.key.trim() === '') errors.key = { messages: ['must not be empty'], value: input.key };
    else if (input.key.length > TOPIC_KEY_MAX_LENGTH) {
      errors.key = { messages: [`must be at most ${TOPIC_KEY_MAX_LENGTH} characters`], value: input.key };
    }
  }
  if (input.name !== undefined && input.name.trim() === '') errors.name = { messages: ['must not be empty'], value: input.name };
  return errors;
}
