import { describe, expect, it } from 'vitest';
import { inlineStylesheets } from './inline-stylesheets';

const HTML = `<head>
<script type="module" crossorigin src="/assets/index-a1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-b2.js">
<link rel="stylesheet" crossorigin href="/assets/index-c3.css">
</head>`;

describe('inlineStylesheets (built index.html)', () => {
  it('puts the stylesheet of the bundle inline, leaving scripts and preloads linked', () => {
    const out = inlineStylesheets(HTML, (file) =>
      file === 'assets/index-c3.css' ? 'body{margin:0}' : null,
    );
    expect(out).toContain('<style>body{margin:0}</style>');
    expect(out).not.toContain('rel="stylesheet"');
    expect(out).toContain('<script type="module" crossorigin src="/assets/index-a1.js"></script>');
    expect(out).toContain('<link rel="modulepreload" crossorigin href="/assets/react-b2.js">');
  });

  it('keeps a stylesheet linked when it is not in the bundle or would close the element', () => {
    expect(inlineStylesheets(HTML, () => null)).toBe(HTML);
    expect(inlineStylesheets(HTML, () => 'a::after{content:"</style>"}')).toBe(HTML);
  });
});
