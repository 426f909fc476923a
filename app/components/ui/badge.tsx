import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "~/lib/utils";

const badgeVariants = cva("inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold", {
  variants: {
    variant: {
      default: "border-transparent bg-primary text-primary-foreground",
      secondary: "border-transparent bg-secondary text-secondary-foreground",
      accent: "border-transparent bg-amber-100 text-amber-900",
      success: "border-transparent bg-green-100 text-green-900",
      warning: "border-transparent bg-yellow-100 text-yellow-900",
      destructive: "border-transparent bg-red-100 text-red-900",
      outline: "text-foreground",
      // The four statuses of docs/design-system.md: in progress, waiting for someone, done, at risk.
      active: "border-transparent bg-status-active-soft text-status-active",
      waiting: "border-transparent bg-status-waiting-soft text-status-waiting",
      done: "border-transparent bg-status-done-soft text-status-done",
      risk: "border-transparent bg-status-risk-soft text-status-risk",
    },
  },
  defaultVariants: { variant: "default" },
});

export type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>["variant"]>;

export function Badge({ className, variant, ...props }: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
