import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTemplate, renderWithLiquid, type RenderMode } from './liquid-engine';

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

  it('renders plain outputs directly exactly as liquidjs does, whatever the values and the text around them', () => {
    const key = fc.constantFrom('a', 'b', 'first_name', 'digest-step', 'size', 'first', 'last', 'length', 'nil', 'empty', 'true', '_x', 'a1');
    const path = fc.array(key, { minLength: 1, maxLength: 3 });
    const output = fc.tuple(path, fc.constantFrom('', ' ', '  ', '\n', '\v', '\ufeff', '\u00a0'), fc.constantFrom('', ' ', '-', ' -', '\t', '\f', '\ufeff', '\u2003')).map(([p, before, after]) => `{{${before}${p.join('.')}${after}}}`);
    const literal = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('{', '}', '{ {', '} }', '-', '{%', '%}', ' | upcase', ''));
    const template = fc.array(fc.oneof(output, literal), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
    const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('<b>&amp;', `"'`, 'a<b'), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(-0), fc.constant(1e21), fc.constant(0.1 + 0.2));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
    })).node;
    const scope = fc.dictionary(key, value, { maxKeys: 5 });
    const mode = fc.constantFrom<RenderMode>('text', 'html');
    fc.assert(
      fc.property(template, scope, mode, (source, variables, as) => {
        const liquid = (() => {
          try {
            return { text: renderWithLiquid(source, variables, as) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        })();
        if ('error' in liquid) expect(() => renderTemplate(source, variables, as)).toThrow(liquid.error);
        else expect(renderTemplate(source, variables, as)).toBe(liquid.text);
      }),
      { numRuns: 3_000 },
    );
  });

  it('escapes every output of an HTML template, but what `raw` (last) inserts and what escape filters made already', () => {
    const scope = { payload: { html: '<b>Hi</b> & "you"', names: ['<i>a</i>', 'b'], n: 2 }, subscriber: { firstName: "<script>alert('x')</script>" } };
    const html = (source: string) => renderTemplate(source, scope, 'html');
    expect(html('<p>{{ payload.html }}</p>')).toBe('<p>&lt;b&gt;Hi&lt;/b&gt; &amp; &#34;you&#34;</p>');
    expect(html('<p>{{payload.html}}, {{ subscriber.firstName | upcase }}</p>')).toBe('<p>&lt;b&gt;Hi&lt;/b&gt; &amp; &#34;you&#34;, &lt;SCRIPT&gt;ALERT(&#39;X&#39;)&lt;/SCRIPT&gt;</p>');
    expect(html('{% for x in payload.names %}<li>{{ x }}</li>{% endfor %}')).toBe('<li>&lt;i&gt;a&lt;/i&gt;</li><li>b</li>');
    expect(html('{{ payload.names | join: "<br>" }}')).toBe('&lt;i&gt;a&lt;/i&gt;&lt;br&gt;b');
    expect(html('{{ payload.html | raw }}')).toBe('<b>Hi</b> & "you"');
    expect(html('{{ payload.html | escape }}|{{ "&lt;" | escape_once }}')).toBe('&lt;b&gt;Hi&lt;/b&gt; &amp; &#34;you&#34;|&lt;');
    expect(html('{{ payload.n | pluralize: "<item>" }}')).toBe('2 &lt;item&gt;s');
    // The same template as text, parsed once per mode: neither mode sees the other's parse.
    expect(renderTemplate('<p>{{ payload.html }}</p>', scope)).toBe('<p><b>Hi</b> & "you"</p>');
    expect(renderTemplate('{{ payload.names | join: "<br>" }}', scope, 'text')).toBe('<i>a</i><br>b');
  });

  it('refuses a plain template longer than liquidjs parses, as liquidjs does', () => {
    const source = `${'x'.repeat(100_000)}{{ a }}`;
    expect(() => renderWithLiquid(source, { a: 'A' })).toThrow(/limit/);
    expect(() => renderTemplate(source, { a: 'A' })).toThrow(/limit/);
  });
});
