/**
 * `make(key)` once per key object, kept as long as the key lives (a WeakMap): a statement built
 * once per database handle, or once per module-constant counts object.
 */
export function memoByObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key) as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
