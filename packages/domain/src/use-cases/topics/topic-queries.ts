import type { Topic, TopicInput } from '../../entities/topic';
import { validateTopicInput } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { TopicOrderBy, TopicRepository, TopicSearch } from '../../ports/topic-repository';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

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

export class GetTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(environmentId: string, key: string): Promise<Topic> {
    const topic = await this.topics.findTopic(environmentId, key);
    if (!topic) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', key);
    return topic;
  }
}

export class SearchTopics {
  constructor(private readonly topics: TopicRepository) {}

  execute(environmentId: string, filter: TopicSearch, page: CursorQuery<TopicOrderBy>): Promise<CursorPage<Topic>> {
    return this.topics.searchTopics(environmentId, filter, page);
  }
}

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

export class DeleteTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(environmentId: string, key: string): Promise<void> {
    if (!(await this.topics.deleteTopic(environmentId, key))) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', key);
  }
}
