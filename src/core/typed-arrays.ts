/** `array` if it holds `length` elements, else a copy of it with room for at least twice as many. */
export function grown(array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  if (length <= array.length) return array;
  const larger = new Uint32Array(Math.max(length, array.length * 2));
  larger.set(array);
  return larger;
}
