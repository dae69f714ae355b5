/** Stable codes a caller can branch on; apps/http maps each to one HTTP status. */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'SUBSCRIBER_NOT_FOUND'
  | 'SUBSCRIBER_ALREADY_EXISTS'
  | 'WORKFLOW_NOT_FOUND'
  | 'WORKFLOW_ALREADY_EXISTS'
  | 'TOPIC_NOT_FOUND'
  | 'SUBSCRIPTION_NOT_FOUND'
  | 'INTEGRATION_NOT_FOUND'
  | 'INTEGRATION_ALREADY_EXISTS'
  | 'CHANNEL_CONNECTION_NOT_FOUND'
  | 'CHANNEL_ENDPOINT_NOT_FOUND'
  | 'CHANNEL_CONNECTION_ALREADY_EXISTS'
  | 'CHANNEL_ENDPOINT_ALREADY_EXISTS'
  | 'WEBHOOK_ENDPOINT_NOT_FOUND'
  | 'NOTIFICATION_NOT_FOUND'
  | 'NOTIFICATION_ACTION_MISSING'
  | 'ENVIRONMENT_NOT_FOUND'
  | 'CONFLICT'
  | 'LIMIT_EXCEEDED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_BODY_MISMATCH'
  | 'IDEMPOTENCY_KEY_TOO_LONG'
  | 'PAYLOAD_INVALID'
  /** Stored secrets that do not decrypt: altered in the database, or written with another key. */
  | 'CREDENTIALS_UNREADABLE';

/** Field name -> messages, for VALIDATION_FAILED. */
export type FieldErrors = Record<string, { messages: string[]; value?: unknown }>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(fields: FieldErrors): DomainError {
    const names = Object.keys(fields);
    const first = names[0] ? `${names[0]}: ${fields[names[0]].messages[0]}` : 'invalid input';
    return new DomainError('VALIDATION_FAILED', names.length > 1 ? `${first} (and ${names.length - 1} more)` : first, fields);
  }

  static field(field: string, message: string, value?: unknown): DomainError {
    return DomainError.validation({ [field]: { messages: [message], value } });
  }

  static notFound(code: ErrorCode, what: string, id: string): DomainError {
    return new DomainError(code, `${what} '${id}' was not found`);
  }
}
