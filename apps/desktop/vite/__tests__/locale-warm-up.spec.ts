import { describe, expect, it } from 'vitest';
import type { IndexHtmlTransformContext } from 'vite';
import { localeWarmUp } from '../locale-warm-up';

/** The plugin's page transform, called as Vite calls it after the bundle is made. */
function transform(bundle: Record<string, unknown>): unknown {
  const hook = localeWarmUp('/x/locale-warm-up.ts').transformIndexHtml as {
    handler: (html: string, ctx: IndexHtmlTransformContext) => unknown;
  };
  return hook.handler('<html></html>', { bundle } as unknown as IndexHtmlTransformContext);
}

const chunk = (name: string, imports: string[] = []) => ({
  type: 'chunk',
  name,
  fileName: `assets/${name}-AbCd1234.js`,
  imports,
});

describe('the locale warm-up plugin', () => {
  it('names its chunk in the page with an async module script', () => {
    const tags = transform({ a: chunk('index', ['assets/x.js']), b: chunk('locale-warm-up') });
    expect(tags).toEqual([
      {
        tag: 'script',
        attrs: {
          type: 'module',
          async: true,
          crossorigin: true,
          src: './assets/locale-warm-up-AbCd1234.js',
        },
        injectTo: 'head',
      },
    ]);
  });

  it('fails the build when its chunk is missing or imports another (it would wait for it)', () => {
    expect(() => transform({ a: chunk('index') })).toThrow(/no such chunk/);
    expect(() => transform({ b: chunk('locale-warm-up', ['assets/initial-x.js']) })).toThrow(
      /must import nothing, imports assets\/initial-x.js/,
    );
  });
});
