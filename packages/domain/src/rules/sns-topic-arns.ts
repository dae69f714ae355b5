/** arn:<partition>:sns:<region>:<12-digit account>:<topic name> (letters, digits, - and _, up to 256; FIFO topics end in .fifo). */
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

/**
 * The SNS topics an SES integration takes receipts from (its `topicArns` credential: one ARN, or
 * several separated by commas or spaces), and what in it is not a topic ARN.
 */
export function snsTopicArns(value: unknown): { arns: string[]; invalid: string[] } {
  const items = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : [];
  return { arns: items.filter((item) => TOPIC_ARN.test(item)), invalid: items.filter((item) => !TOPIC_ARN.test(item)) };
}
