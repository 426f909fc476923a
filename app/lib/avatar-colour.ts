// A colour per person for avatars without a photo: the same member always gets the
// same colour, neighbours in a list usually differ. Every background keeps white initials above
// the WCAG AA contrast (4.5:1). Full class names, so that Tailwind finds them.
export const AVATAR_COLOURS = [
  "bg-blue-700",
  "bg-emerald-700",
  "bg-violet-700",
  "bg-rose-700",
  "bg-amber-700",
  "bg-teal-700",
  "bg-indigo-700",
  "bg-fuchsia-700",
  "bg-sky-700",
  "bg-orange-700",
  "bg-cyan-700",
  "bg-slate-700",
] as const;

/** FNV-1a over the UTF-16 code units: stable across runs, machines and the browser. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The background class of a person's avatar, from a stable key (their id, or their name). */
export function avatarColour(key: string): (typeof AVATAR_COLOURS)[number] {
  return AVATAR_COLOURS[hash(key.trim().toLowerCase()) % AVATAR_COLOURS.length];
}
