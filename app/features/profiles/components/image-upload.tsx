import { ImageIcon } from "lucide-react";
import { useRef, useState } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/input";
import { ACCEPTED_IMAGE_MIME_TYPES, DEFAULT_MAX_UPLOAD_MB, precheckFile, UPLOAD_MESSAGES } from "~/lib/storage/upload-rules";
import { PROFILE_MESSAGES, type ImageKind } from "../profile.schema";
import { useHydrated } from "~/lib/use-hydrated";

type UploadReply = { ok: true; kind: string; url: string } | { ok: false; title: string; description: string };

const UPLOAD_URL = "/api/uploads";

/**
 * Logo or photo upload. Without JavaScript it is a plain multipart form posting to /api/uploads;
 * once hydrated, picking a file sends it at once with XMLHttpRequest, whose upload events drive
 * the progress bar (fetch has no upload progress).
 */
export function ImageUpload({
  kind,
  label,
  currentUrl,
  alt,
  maxSizeMB = DEFAULT_MAX_UPLOAD_MB,
}: {
  kind: ImageKind;
  label: string;
  currentUrl: string | null;
  alt: string;
  maxSizeMB?: number;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = `upload-${kind}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const uploading = progress !== null;
  const removing = navigation.state !== "idle" && navigation.formData?.get("intent") === "image-remove" && navigation.formData?.get("kind") === kind;

  const fail = (title: string, description: string) => {
    setError(description);
    toast.error(title, { description });
  };

  function upload(file: File) {
    const problem = precheckFile(file, maxSizeMB);
    if (problem) return fail(problem.title, problem.description);
    setError(null);
    setProgress(0);
    const body = new FormData();
    body.set("kind", kind);
    body.set("file", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", UPLOAD_URL);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) setProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      setProgress(null);
      const reply = xhr.response as UploadReply | null;
      if (xhr.status >= 200 && xhr.status < 300 && reply?.ok) {
        toast.success(PROFILE_MESSAGES.savedTitle, { description: PROFILE_MESSAGES.savedDescription });
        void revalidator.revalidate();
        return;
      }
      if (reply && !reply.ok) fail(reply.title, reply.description);
      else fail(UPLOAD_MESSAGES.failedTitle, UPLOAD_MESSAGES.failedDescription);
    };
    xhr.onerror = () => {
      setProgress(null);
      fail(UPLOAD_MESSAGES.failedTitle, UPLOAD_MESSAGES.failedDescription);
    };
    xhr.send(body);
  }

  const frame = kind === "photo" ? "rounded-full object-cover" : "rounded-md object-contain bg-white";
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      {currentUrl ? (
        <img src={currentUrl} alt={alt} width={96} height={96} className={`h-24 w-24 shrink-0 border ${frame}`} />
      ) : (
        <div
          aria-hidden="true"
          className={`grid h-24 w-24 shrink-0 place-items-center border border-dashed bg-muted text-muted-foreground ${kind === "photo" ? "rounded-full" : "rounded-md"}`}
        >
          <ImageIcon className="h-8 w-8" />
        </div>
      )}
      <div className="grid min-w-0 flex-1 gap-2">
        <form
          method="post"
          action={UPLOAD_URL}
          encType="multipart/form-data"
          className="grid gap-2"
          onSubmit={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            const file = inputRef.current?.files?.[0];
            if (file) upload(file);
          }}
        >
          <input type="hidden" name="kind" value={kind} />
          <Label htmlFor={inputId}>{label}</Label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            name="file"
            accept={ACCEPTED_IMAGE_MIME_TYPES.join(",")}
            disabled={uploading}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            className="block w-full max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-muted"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file && hydrated) {
                upload(file);
                event.target.value = "";
              }
            }}
          />
          <p id={hintId} className="text-xs text-muted-foreground">
            {UPLOAD_MESSAGES.hint(maxSizeMB)}
          </p>
          {hydrated ? null : (
            <div>
              <Button type="submit" variant="outline" size="sm">
                Envoyer l’image
              </Button>
            </div>
          )}
        </form>
        {uploading ? (
          <div className="grid gap-1">
            <div
              role="progressbar"
              aria-label={`Envoi\u00a0: ${label}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="h-2 w-full overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
            </div>
            <p className="text-xs text-muted-foreground" aria-live="polite">
              Envoi en cours… {progress}&nbsp;%
            </p>
          </div>
        ) : null}
        {error ? (
          <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        {currentUrl ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="kind" value={kind} />
            <Button type="submit" name="intent" value="image-remove" variant="ghost" size="sm" disabled={removing || uploading}>
              {removing ? "Suppression..." : kind === "logo" ? "Retirer le logo" : "Retirer la photo"}
            </Button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}
