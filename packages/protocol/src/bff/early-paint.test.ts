import { describe, expect, it } from 'vitest';
import { fillEarlyPaint } from './early-paint';

const template =
  '<p>Signed in as {{username}} ({{role}})</p><!--sandbox--><p>Sandbox</p><!--/sandbox--><b>{{username}}</b>';

describe('fillEarlyPaint', () => {
  it('keeps the sandbox-only markup on the sandbox and fills in every placeholder', () => {
    expect(fillEarlyPaint(template, { username: 'ada', role: 'admin', isSandbox: true })).toBe(
      '<p>Signed in as ada (admin)</p><p>Sandbox</p><b>ada</b>',
    );
  });

  it('drops every sandbox-only block for a live upstream', () => {
    const twice = `${template}<!--sandbox--><i>again</i><!--/sandbox-->`;
    expect(fillEarlyPaint(twice, { username: 'ada', role: 'admin', isSandbox: false })).toBe(
      '<p>Signed in as ada (admin)</p><b>ada</b>',
    );
  });

  it('escapes names, so a username cannot add markup', () => {
    const filled = fillEarlyPaint('{{username}}|{{role}}', {
      username: `<img src=x onerror="alert('x')">&`,
      role: 'a"b',
      isSandbox: true,
    });
    expect(filled).toBe('&#60;img src=x onerror=&#34;alert(&#39;x&#39;)&#34;&#62;&#38;|a&#34;b');
  });
});
