import type { Topic } from '../../entities/topic';
import { validateTopicInput } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { TopicRepository } from '../../ports/topic-repository';

/** Renames a topic; 404 when the key names none. */
export class UpdateTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(environmentId: string, key: string, changes: { name?: string }): Promise<Topic> {
    const errors = validateTopicInput(changes);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    const topic = await this.topics.updateTopic(environmentId, key, changes);
    if (!topic) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', key);
    return topic;
  }
}
