/**
 * Dark mode swaps the colour variables of styles.css: a component that paints a light
 * background, a dark text or a light tint border with a literal stays light in the dark
 * scheme. This reads every stylesheet of the renderer (the <style> of each .vue, the .css
 * files but styles.css, which defines the variables) for those literals.
 */
import { describe, expect, it } from 'vitest';

/** Every stylesheet's text (the renderer has no Node: Vite reads them for the test). */
const SOURCES = import.meta.glob<string>(
  ['../**/*.vue', '../**/*.css', '!../styles.css', '!../**/__tests__/**'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

/** Light backgrounds, light tint borders and dark texts that have a variable in styles.css. */
const LIGHT_ONLY = {
  background: [
    '#fff',
    '#ffffff',
    '#f9fafb',
    '#f8fafc',
    '#f3f4f6',
    '#fffbeb',
    '#fef2f2',
    '#f0fdf4',
    '#eff6ff',
  ],
  border: ['#e5e7eb', '#d1d5db', '#9ca3af', '#fde68a', '#fcd34d', '#fca5a5', '#86efac', '#93c5fd'],
  color: [
    '#111827',
    '#111',
    '#374151',
    '#4b5563',
    '#6b7280',
    '#92400e',
    '#991b1b',
    '#14532d',
    '#166534',
  ],
};

function cssOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
}

describe('colours in the stylesheets', () => {
  it('come from the variables the dark scheme swaps', () => {
    const found: string[] = [];
    expect(Object.keys(SOURCES).length).toBeGreaterThan(20);
    for (const [file, text] of Object.entries(SOURCES)) {
      for (const [, prop, value] of cssOf(file, text).matchAll(/([a-z-]+)\s*:\s*([^;{}]+);/g)) {
        if (value!.includes('var(')) continue;
        const kind = prop!.startsWith('background')
          ? 'background'
          : prop!.startsWith('border')
            ? 'border'
            : prop === 'color'
              ? 'color'
              : null;
        if (!kind) continue;
        for (const hex of value!.toLowerCase().match(/#[0-9a-f]{3,8}\b/g) ?? []) {
          if (LIGHT_ONLY[kind].includes(hex)) found.push(`${file}: ${prop}: ${value}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
