/** The order the benchmarks create: one tasking item on a small box near Bologna (demo project). */
import type { OutboxInput } from '../src/outbox/index';

export function orderInput(name: string, k = 0): OutboxInput<'order'> {
  // Boxes step across a 2° band so orders are not all the same.
  const w = 11 + (k % 20) * 0.1;
  const s = 44 + (Math.floor(k / 20) % 10) * 0.05;
  const [e, n] = [w + 0.125, s + 0.1];
  const ring: Array<[number, number]> = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  return {
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name,
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } }],
        },
        start_date: '2030-06-01T00:00:00Z',
        end_date: '2030-06-30T00:00:00Z',
      },
    ],
  };
}
