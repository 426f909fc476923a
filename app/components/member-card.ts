// Premium and standard member cards differ at a glance: a premium card has an amber
// band on top, an amber frame and a light amber tint; a standard card stays plain. Shared by the
// public directory and the members' directory.
export function memberCardTone(premium: boolean): string | undefined {
  return premium ? "border-amber-300 border-t-4 border-t-amber-500 bg-gradient-to-b from-amber-50 to-background ring-1 ring-amber-200" : undefined;
}
