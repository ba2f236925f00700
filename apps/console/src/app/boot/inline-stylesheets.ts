/**
 * Build-time (used by the root vite.config.ts, never shipped): replaces each
 * `<link rel="stylesheet" href="/x.css">` of the built index.html whose file is in the bundle
 * with a `<style>` holding its text. CSP allows inline styles (decision 001); scripts stay
 * 'self' only. A linked stylesheet is render-blocking and Vite lists it after the entry script
 * and its modulepreloads, so the first paint (the "Loading the console…" status) waited for
 * the first page's JS to download as well (Lighthouse: "render-blocking requests").
 */
export function inlineStylesheets(html: string, cssByFile: (fileName: string) => string | null) {
  return html.replace(
    /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g,
    (link, fileName: string) => {
      const css = cssByFile(fileName);
      // `</style` would end the element early: keep such a file linked (Tailwind never emits it).
      if (css === null || /<\/style/i.test(css)) return link;
      return `<style>${css}</style>`;
    },
  );
}
