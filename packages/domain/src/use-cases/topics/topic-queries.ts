import type { Topic } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { TopicOrderBy, TopicRepository, TopicSearch } from '../../ports/topic-repository';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

/** Reads of topics, each one repository call plus not-found handling. */
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
