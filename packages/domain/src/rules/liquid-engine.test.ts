import { describe, expect, it } from 'vitest';
import { renderTemplate } from './liquid-engine';

describe('renderTemplate', () => {
  it('renders one template against each scope it is given (the parsed template is reused, never its values)', () => {
    const source = 'Hello {{ subscriber.firstName }}, {{ payload.count | pluralize: "comment" }}';
    expect(renderTemplate(source, { subscriber: { firstName: 'Ada' }, payload: { count: 1 } })).toBe('Hello Ada, 1 comment');
    expect(renderTemplate(source, { subscriber: { firstName: 'Bob' }, payload: { count: 3 } })).toBe('Hello Bob, 3 comments');
    expect(renderTemplate(source, {})).toBe('Hello , 0 comments');
  });

  it('reads no file: include, render and layout of a file in the working directory fail', () => {
    // package.json is in the working directory of every test run (and of the service's data directory's parent).
    for (const tag of ["{% include 'package.json' %}", "{% render 'package.json' %}", "{% layout 'package.json' %}x"]) {
      expect(() => renderTemplate(tag, {})).toThrow(/package\.json/);
    }
  });

  it('refuses a template that does not parse every time, not only the first', () => {
    for (let i = 0; i < 2; i++) expect(() => renderTemplate('{{ name | nosuchfilter }}', { name: 'x' })).toThrow(/nosuchfilter/);
  });

  it('keeps rendering correctly past the number of templates it keeps parsed', () => {
    // 30 templates of 90,000 characters: more than the 2,000,000 kept parsed.
    const filler = 'x'.repeat(90_000);
    for (let i = 0; i < 30; i++) expect(renderTemplate(`{{ n }}-${i}-${filler}`, { n: i })).toBe(`${i}-${i}-${filler}`);
    expect(renderTemplate('{{ n }}-0', { n: 'again' })).toBe('again-0');
  });
});
