/** A closed square ring from (x, y) with side d: test polygons, holes and antimeridian parts. */
export const square = (x: number, y: number, d: number): number[][] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];
