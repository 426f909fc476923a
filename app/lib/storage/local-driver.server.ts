// Storage driver on a local directory. Writes go to a temporary file first and are renamed into
// place, so a reader never sees half a file.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { contentTypeOfKey as contentTypeOf, isPrivateKey, isSafeKey } from "./keys";
import type { StorageDriver } from "./storage.server";

// The driver keeps no metadata next to the bytes: the content type follows from the extension
// (images of profiles, and the PDF, image and office documents of collaboration files).

export function createLocalStorage(root: string, publicPrefix: string): StorageDriver {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error(`storage key outside the root: ${key}`);
    return file;
  };
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
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async deleteObject(key) {
      await rm(fileOf(key), { force: true });
    },
    publicUrl(key) {
      fileOf(key);
      if (isPrivateKey(key)) throw new Error(`private storage key has no public URL: ${key}`);
      return `${publicPrefix}${key}`;
    },
  };
}
