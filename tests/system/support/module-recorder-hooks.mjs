// The load hook of module-recorder.mjs: appends each module's URL to the file it was given.
import { appendFileSync } from "node:fs";

let file = "";

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
