import type { Topic, TopicInput } from '../../entities/topic';
import { validateTopicInput } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { TopicRepository } from '../../ports/topic-repository';

/** Creates a topic or updates the name of an existing key; with failIfExists an existing key is a conflict. */
export class UpsertTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(input: { environmentId: string; topic: TopicInput; failIfExists?: boolean }): Promise<{ topic: Topic; created: boolean }> {
    const errors = validateTopicInput(input.topic);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    if (input.failIfExists && (await this.topics.findTopic(input.environmentId, input.topic.key))) {
      throw new DomainError('CONFLICT', `Topic '${input.topic.key}' already exists`);
    }
    return this.topics.upsertTopic(input.environmentId, input.topic);
  }
}
