/**
 * A part of the first screen loaded on first use (a map tool's panel, the dropped file's
 * preview, the export choices), so its code is not in the initial JS the catalog parses before
 * it draws (apps/desktop/bench/initial-js.ts). `lazyPart(what, load)` is a component that
 * mounts the loaded one with the same props, listeners and slots; while its code loads it says
 * "Loading <what>…" (a status), and if the code cannot be loaded it says so (an alert) with
 * "Try again". `loadLazyParts()` loads every part defined (App does once the first screen is
 * up, as it does the screens): afterwards they mount at once.
 */
import {
  defineComponent,
  h,
  markRaw,
  shallowRef,
  type Component,
  type HTMLAttributes,
  type ShallowRef,
} from 'vue';

interface Part {
  /** Boxed: a ShallowRef of a component type does not narrow (Vue's Ref conditional). */
  readonly resolved: ShallowRef<{ readonly component: Component } | null>;
  readonly failed: ShallowRef<boolean>;
  load(): Promise<void>;
}

const parts = new Set<Part>();

function definePart(load: () => Promise<{ default: Component }>): Part {
  const resolved: Part['resolved'] = shallowRef(null);
  const failed = shallowRef(false);
  let pending: Promise<void> | null = null;
  const part: Part = {
    resolved,
    failed,
    load() {
      if (resolved.value) return Promise.resolve();
      if (pending) return pending;
      failed.value = false;
      pending = load().then(
        (m) => {
          resolved.value = { component: markRaw(m.default) };
          failed.value = false;
        },
        () => {
          // Forgotten, so "Try again" (or the next use) imports it again.
          pending = null;
          failed.value = true;
        },
      );
      return pending;
    },
  };
  parts.add(part);
  return part;
}

/** The component of `load`, loaded on first mount; `what` names it in its loading state. */
export function lazyPart<T extends Component>(
  what: string,
  load: () => Promise<{ default: T }>,
): T {
  const part = definePart(load);
  const Lazy = defineComponent({
    name: 'LazyPart',
    inheritAttrs: false,
    setup(_, { attrs, slots }) {
      void part.load();
      return () => {
        const loaded = part.resolved.value?.component;
        if (loaded) return h(loaded, attrs, slots);
        // The host's class and style place the state where the part will be.
        const place = {
          class: ['lazy-part', attrs['class']],
          style: attrs['style'],
        } as HTMLAttributes;
        if (part.failed.value) {
          return h('p', { ...place, role: 'alert', 'data-test': 'lazy-part-error' }, [
            `${what[0]?.toUpperCase()}${what.slice(1)} could not be loaded. `,
            h(
              'button',
              { type: 'button', class: 'btn btn--small', onClick: () => void part.load() },
              'Try again',
            ),
          ]);
        }
        return h('p', { ...place, role: 'status', 'data-test': 'lazy-part-loading' }, [
          `Loading ${what}…`,
        ]);
      };
    },
  });
  return Lazy as unknown as T;
}

/** Loads every lazy part's code (each once); afterwards they mount without waiting. */
export async function loadLazyParts(): Promise<void> {
  await Promise.all([...parts].map((p) => p.load()));
}
