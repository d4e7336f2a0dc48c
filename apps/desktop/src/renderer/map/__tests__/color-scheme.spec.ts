/**
 * The map's canvases follow prefers-color-scheme (map/color-scheme.ts): the dark palettes when
 * the system is dark, and a change of scheme is told to the layers (they redraw). happy-dom's
 * matchMedia never matches, so a stand-in is put first and the modules loaded afresh.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** A matchMedia whose dark query matches when `dark.value` is true, and can fire a change. */
function stubScheme(dark: { value: boolean }) {
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(prefers-color-scheme: dark)' && dark.value;
    },
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  }));
  return { fire: () => listeners.forEach((f) => f()), listeners };
}

describe('the map palettes and prefers-color-scheme', () => {
  it('are the light ones when the system is light', async () => {
    stubScheme({ value: false });
    const basemap = await import('../basemap-layer');
    const footprints = await import('../footprint-layer');
    expect(basemap.basemapStyle()).toBe(basemap.BASEMAP_STYLE);
    expect(footprints.footprintStyle()).toBe(footprints.FOOTPRINT_STYLE);
  });

  it('are the dark ones when it is dark, and follow a change', async () => {
    const dark = { value: true };
    const scheme = stubScheme(dark);
    const basemap = await import('../basemap-layer');
    const footprints = await import('../footprint-layer');
    const { onSchemeChange } = await import('../color-scheme');
    expect(basemap.basemapStyle()).toBe(basemap.BASEMAP_STYLE_DARK);
    expect(footprints.footprintStyle()).toBe(footprints.FOOTPRINT_STYLE_DARK);
    // Dark land and sea, light names: the reverse of the light palette.
    expect(basemap.BASEMAP_STYLE_DARK.land).not.toBe(basemap.BASEMAP_STYLE.land);

    const changed = vi.fn();
    const stop = onSchemeChange(changed);
    dark.value = false;
    scheme.fire();
    expect(changed).toHaveBeenCalledTimes(1);
    expect(basemap.basemapStyle()).toBe(basemap.BASEMAP_STYLE);
    stop();
    expect(scheme.listeners.size).toBe(0);
  });
});
