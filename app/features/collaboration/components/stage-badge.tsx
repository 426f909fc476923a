import { Badge } from "~/components/ui/badge";
import type { Stage } from "../collaboration-rules";

const VARIANT: Record<Stage, "default" | "secondary" | "success" | "destructive" | "outline"> = {
  introduction: "outline",
  exchanges: "secondary",
  documents: "secondary",
  offer: "default",
  protocol: "default",
  concluded: "success",
  abandoned: "destructive",
};

export function StageBadge({ stage, label }: { stage: Stage; label: string }) {
  return (
    <Badge variant={VARIANT[stage]} data-testid="file-stage">
      {label}
    </Badge>
  );
}
