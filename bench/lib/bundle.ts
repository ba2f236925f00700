import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * The JS and CSS the first page loads: the entry script of index.html, its modulepreload
 * imports (Vite lists every static import of the entry there) and its stylesheets, with
 * their gzip (level 9) and brotli (quality 11) sizes.
 */

export type AssetSize = {
  path: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  brotli: number;
};

export function initialAssets(dist: string): AssetSize[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const paths = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) {
    if (match[1]) paths.add(match[1]);
  }
  for (const match of html.matchAll(
    /<link[^>]*rel="(?:modulepreload|stylesheet)"[^>]*href="([^"]+)"/g,
  )) {
    if (match[1]) paths.add(match[1]);
  }
  return [...paths].map((path) => {
    const bytes = readFileSync(join(dist, path.replace(/^\//, '')));
    return {
      path,
      kind: path.endsWith('.css') ? 'css' : 'js',
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    };
  });
}

export function sumOf(assets: AssetSize[], kind: 'js' | 'css', field: 'raw' | 'gzip' | 'brotli') {
  return assets.filter((a) => a.kind === kind).reduce((sum, a) => sum + a[field], 0) / 1024;
}
