import { avatarColour } from "~/lib/avatar-colour";
import { initials } from "~/lib/text";
import { cn } from "~/lib/utils";

/** Photo, or the member's initials on their own colour (avatarColour) when there is none. */
export function Avatar({
  firstName,
  lastName,
  photoUrl,
  size = "md",
  colourKey,
}: {
  firstName: string;
  lastName: string;
  photoUrl: string | null;
  size?: "sm" | "md" | "lg";
  /** What the colour follows (an id); the name by default. */
  colourKey?: string;
}) {
  const box = size === "lg" ? "h-24 w-24 text-2xl" : size === "sm" ? "h-8 w-8 text-xs" : "h-14 w-14 text-lg";
  if (photoUrl) {
    return <img src={photoUrl} alt={`Photo de ${firstName} ${lastName}`} className={cn(box, "shrink-0 rounded-full object-cover")} width={96} height={96} loading="lazy" />;
  }
  return (
    <span aria-hidden="true" className={cn(box, "grid shrink-0 place-items-center rounded-full font-semibold text-white", avatarColour(colourKey ?? `${firstName} ${lastName}`))}>
      {initials(firstName, lastName)}
    </span>
  );
}
