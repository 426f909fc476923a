// Storage driver on a local directory. Writes go to a temporary file first and are renamed into
// place, so a reader never sees half a file.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream";
import { verifyingStream } from "./integrity.server";
import { contentTypeOfKey as contentTypeOf, isSafeKey, publicUrlOfKey } from "./keys";
import type { StorageBackend } from "./types";

// The driver keeps no metadata next to the bytes: the content type follows from the extension
// (images of profiles, and the PDF, image and office documents of collaboration files).

export function createLocalStorage(root: string, publicPrefix: string): StorageBackend {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error(`storage key outside the root: ${key}`);
    return file;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
  async function* walk(dir: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (missing(error)) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(full);
      else if (entry.isFile()) yield path.relative(base, full).split(path.sep).join("/");
    }
  }
  return {
    async putObject(key, bytes, contentType) {
      const file = fileOf(key);
      if (contentTypeOf(key) !== contentType) throw new Error(`content type ${contentType} does not match ${key}`);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(tmp, bytes, { flag: "wx" });
        await rename(tmp, file);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
    async getObject(key) {
      const contentType = contentTypeOf(key);
      if (!contentType || !isSafeKey(key)) return null;
      try {
        return { bytes: await readFile(fileOf(key)), contentType };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async openObject(key, options = {}) {
      const contentType = contentTypeOf(key);
      if (!contentType || !isSafeKey(key)) return null;
      // One descriptor for the size and the bytes: a rename over the file meanwhile changes neither.
      let handle;
      try {
        handle = await open(fileOf(key), "r");
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      const { size } = await handle.stat();
      const verify = verifyingStream(key, { sha256: options.sha256, length: size });
      // The handle's stream closes it when it ends or is destroyed (a client gone mid-download).
      const body = pipeline(handle.createReadStream(), verify, () => undefined);
      return { body, contentLength: size, contentType };
    },
    async deleteObject(key) {
      await rm(fileOf(key), { force: true });
    },
    publicUrl(key) {
      return publicUrlOfKey(publicPrefix, key);
    },
    async *listKeys() {
      for await (const key of walk(base)) if (isSafeKey(key) && contentTypeOf(key)) yield key;
    },
    async sha256Of(key) {
      const hash = createHash("sha256");
      try {
        for await (const chunk of createReadStream(fileOf(key))) hash.update(chunk as Buffer);
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      return hash.digest("hex");
    },
  };
}
