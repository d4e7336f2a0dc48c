/**
 * Esc closes what was opened last, and the focus goes back to what opened it (issue 26: Esc
 * closed no dialog). One way for every popover, panel and dialog: each open one is a layer on
 * one stack, and one keydown listener on the document closes the top layer. An Escape a control
 * inside already used (`preventDefault`: the typed-area box, a combobox) is left to it.
 */
import { onScopeDispose, watch, type Ref } from 'vue';

interface Layer {
  readonly close: () => void;
  /** What had the focus when the layer opened: it gets it back when Esc closes the layer. */
  readonly opener: HTMLElement | null;
}

const layers: Layer[] = [];
let listening = false;

function onKeydown(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const top = layers.at(-1);
  if (!top) return;
  e.preventDefault();
  top.close();
  // The opener may have gone with what closed (a popover's own button): then nothing to do.
  if (top.opener?.isConnected) top.opener.focus();
}

/** How many layers are open (tests). */
export const openLayers = (): number => layers.length;

/**
 * Registers `open` as a layer while it is true (call in a component's setup): Esc sets it false
 * and returns the focus to the element focused when it became true.
 */
export function closeOnEscape(open: Ref<boolean>): void {
  let layer: Layer | null = null;
  const remove = () => {
    if (!layer) return;
    const i = layers.indexOf(layer);
    if (i >= 0) layers.splice(i, 1);
    layer = null;
  };
  watch(
    open,
    (now) => {
      if (!now) return remove();
      if (layer) return;
      const active = document.activeElement;
      layer = {
        close: () => (open.value = false),
        opener: active instanceof HTMLElement && active !== document.body ? active : null,
      };
      layers.push(layer);
      if (!listening) {
        document.addEventListener('keydown', onKeydown);
        listening = true;
      }
    },
    { immediate: true },
  );
  onScopeDispose(remove);
}
