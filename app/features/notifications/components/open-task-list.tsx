// The member's open to-dos, newest first, a page at a time: each opens what it asks for and
// stays until that is done (the counts per kind are on the overview).
import { ListChecks } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/lib/format";
import { EVENT_RULES, isEventKind, type OpenTask } from "../event-rules";

function taskTitle(kind: string): string {
  const rule = isEventKind(kind) ? EVENT_RULES[kind].task : null;
  return rule ? rule.one.charAt(0).toUpperCase() + rule.one.slice(1) : "Action attendue";
}

export function OpenTaskList({ tasks, next, paged }: { tasks: OpenTask[]; next: string | null; paged: boolean }) {
  if (tasks.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 p-8 text-center" data-testid="tasks-empty">
        <ListChecks className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
        <p className="text-sm text-muted-foreground">Rien ne vous attend&nbsp;: aucune tâche ouverte.</p>
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <ul className="divide-y" aria-label="Tâches ouvertes" data-testid="task-list">
        {tasks.map((t) => (
          <li key={t.key} className="px-2 py-1">
            <Link to={t.link ?? "/dashboard"} className="block rounded-md p-2 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring">
              <span className="block text-xs text-muted-foreground">
                {isEventKind(t.kind) ? EVENT_RULES[t.kind].label : "Tâche"} · {formatDateTime(t.createdAt)}
              </span>
              <span className="block break-words text-sm font-medium">{taskTitle(t.kind)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {next || paged ? (
        <div className="flex flex-wrap gap-2 px-4 pb-4">
          {paged ? (
            <Button asChild variant="outline" size="sm">
              <Link to="?" preventScrollReset>
                Tâches les plus récentes
              </Link>
            </Button>
          ) : null}
          {next ? (
            <Button asChild variant="outline" size="sm">
              <Link to={`?taches=${encodeURIComponent(next)}`} preventScrollReset>
                Tâches suivantes
              </Link>
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
