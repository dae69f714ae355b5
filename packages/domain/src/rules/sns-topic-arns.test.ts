import { describe, expect, it } from 'vitest';
import { snsTopicArns } from './sns-topic-arns';

describe('snsTopicArns', () => {
  it.each([
    ['arn:aws:sns:us-east-1:123456789012:ses-receipts', ['arn:aws:sns:us-east-1:123456789012:ses-receipts'], []],
    ['arn:aws:sns:eu-west-1:123456789012:a, arn:aws-cn:sns:cn-north-1:123456789012:b_2.fifo', ['arn:aws:sns:eu-west-1:123456789012:a', 'arn:aws-cn:sns:cn-north-1:123456789012:b_2.fifo'], []],
    ['arn:aws:sqs:us-east-1:123456789012:queue', [], ['arn:aws:sqs:us-east-1:123456789012:queue']],
    ['arn:aws:sns:us-east-1:1234:short-account', [], ['arn:aws:sns:us-east-1:1234:short-account']],
    ['ses-receipts', [], ['ses-receipts']],
    ['', [], []],
    [42, [], []],
  ])('%s', (value, arns, invalid) => {
    expect(snsTopicArns(value)).toEqual({ arns, invalid });
  });
});
