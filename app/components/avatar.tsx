import { initials } from "~/lib/text";
import { cn } from "~/lib/utils";

/** Photo, or the member's initials when there is none. */
export function Avatar({
  firstName,
  lastName,
  photoUrl,
  size = "md",
}: {
  firstName: string;
  lastName: string;
  photoUrl: string | null;
  size?: "md" | "lg";
}) {
  const box = size === "lg" ? "h-24 w-24 text-2xl" : "h-14 w-14 text-lg";
  if (photoUrl) {
    return <img src={photoUrl} alt={`Photo de ${firstName} ${lastName}`} className={cn(box, "shrink-0 rounded-full object-cover")} width={96} height={96} loading="lazy" />;
  }
  return (
    <span aria-hidden="true" className={cn(box, "grid shrink-0 place-items-center rounded-full bg-primary font-semibold text-white")}>
      {initials(firstName, lastName)}
    </span>
  );
}
