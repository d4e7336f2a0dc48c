/**
 * A Vite plugin (renderer build only) that ships `src/renderer/locale-warm-up.ts` as a file of
 * its own, named by its content like the app's script, and names it in the page with an async
 * module script tag: fetched beside the app's script and run as soon as it arrives, in the time
 * the page spends waiting for the larger one (the module's comment says what it warms).
 */
import type { Plugin } from 'vite';

const NAME = 'locale-warm-up';

export function localeWarmUp(entry: string): Plugin {
  return {
    name: 'eo-locale-warm-up',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: entry, name: NAME });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.name === NAME,
        );
        if (!chunk || chunk.type !== 'chunk')
          throw new Error(`${NAME}: the build has no such chunk`);
        // A chunk that imports another waits for it: then it would run with the app, not before.
        if (chunk.imports.length > 0) {
          throw new Error(`${NAME}: must import nothing, imports ${chunk.imports.join(', ')}`);
        }
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `./${chunk.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
