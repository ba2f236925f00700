import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The JS and CSS the first page loads: the entry script of index.html, its modulepreload
 * imports (Vite lists every static import of the entry there), its stylesheets and the CSS
 * inlined in it (`<style>`, the build inlines the entry stylesheet), with their gzip (level 9)
 * and brotli (quality 11) sizes, compressed in zlib's thread pool (the bench's loop stays free
 * for the servers it starts meanwhile).
 */

export type AssetSize = {
  path: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  brotli: number;
};

export async function initialAssets(dist: string): Promise<AssetSize[]> {
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
  const measure = async (
    path: string,
    kind: AssetSize['kind'],
    bytes: Buffer,
  ): Promise<AssetSize> => {
    const [gz, br] = await Promise.all([
      gzipAsync(bytes, { level: 9 }),
      brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    ]);
    return { path, kind, raw: bytes.length, gzip: gz.length, brotli: br.length };
  };
  const files = [...paths].map((path) =>
    measure(
      path,
      path.endsWith('.css') ? 'css' : 'js',
      readFileSync(join(dist, path.replace(/^\//, ''))),
    ),
  );
  const inline = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match, i) =>
    measure(`index.html <style> ${String(i + 1)}`, 'css', Buffer.from(match[1] ?? '')),
  );
  return Promise.all([...files, ...inline]);
}

export function sumOf(assets: AssetSize[], kind: 'js' | 'css', field: 'raw' | 'gzip' | 'brotli') {
  return assets.filter((a) => a.kind === kind).reduce((sum, a) => sum + a[field], 0) / 1024;
}
