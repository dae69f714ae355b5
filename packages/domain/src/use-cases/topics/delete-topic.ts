import type { Topic } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { TopicRepository } from '../../ports/topic-repository';

/** Deletes a topic with its subscriptions; 404 when the key names none. */
export class DeleteTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(environmentId: string, key: string): Promise<void> {
    if (!(await this.topics.deleteTopic(environmentId, key))) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', key);
  }
}
