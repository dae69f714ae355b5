/** CR and LF end a header line in SMTP (and in HTTP): never inside one header's value. */
const BREAK = /[\r\n]/;
const BREAKS = /[\r\n]+/g;

/** The text on one line: each run of CR/LF becomes a space, so no value can start a header of its own. */
export function singleLine(text: string): string {
  return BREAK.test(text) ? text.replace(BREAKS, ' ') : text;
}

/**
 * Fields of provider overrides and integration credentials that providers put in message headers
 * (email sender, recipients, reply-to, subject; push title; SMS sender id).
 */
const HEADER_FIELDS = ['from', 'senderName', 'replyTo', 'to', 'cc', 'bcc', 'subject', 'title', 'senderId'];

const broken = (value: unknown): boolean => (typeof value === 'string' ? BREAK.test(value) : Array.isArray(value) && value.some(broken));
const line = (value: unknown): unknown => (typeof value === 'string' ? singleLine(value) : Array.isArray(value) ? value.map(line) : value);

/**
 * The fields with every header-bound value on one line, each custom `headers` name and value too.
 * The same object when none had a line break (the usual case copies nothing).
 */
export function headerSafe<T extends Record<string, unknown>>(fields: T): T {
  let out: Record<string, unknown> | undefined;
  for (const key of HEADER_FIELDS) if (broken(fields[key])) (out ??= { ...fields })[key] = line(fields[key]);
  const headers = fields.headers;
  if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
    const entries = Object.entries(headers as Record<string, unknown>);
    if (entries.some(([name, value]) => BREAK.test(name) || broken(value))) {
      (out ??= { ...fields }).headers = Object.fromEntries(entries.map(([name, value]) => [singleLine(name), line(value)]));
    }
  }
  return (out ?? fields) as T;
}
