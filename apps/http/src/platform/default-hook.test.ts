import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from './default-hook';
import { UNKNOWN_FIELD } from './strict-request';

const SignIn = z.object({ email: z.string(), password: z.string() }).strict();
const errorsOf = (body: string) => {
  const input: unknown = JSON.parse(body);
  const result = SignIn.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return JSON.parse(JSON.stringify(fieldErrors(result.error, input))) as Record<string, { messages: string[]; value?: unknown }>;
};

describe('fieldErrors', () => {
  it('names an unknown key itself, even one called __proto__, and never shows a password back', () => {
    // Built with fromEntries: in an object literal, __proto__ would set the prototype instead.
    expect(errorsOf('{"__proto__":{"x":1},"email":"ada@example.com","password":"hunter2","extra":1}')).toEqual(
      Object.fromEntries([
        ['__proto__', { messages: [UNKNOWN_FIELD], value: { x: 1 } }],
        ['extra', { messages: [UNKNOWN_FIELD], value: 1 }],
      ]),
    );
    expect(errorsOf('{"email":1,"password":2}')).toEqual({ email: { messages: [expect.any(String)], value: 1 }, password: { messages: [expect.any(String)] } });
  });
});
