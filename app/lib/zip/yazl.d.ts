// The part of yazl (no bundled types) the closing archive uses.
declare module "yazl" {
  import type { Readable } from "node:stream";
  export class ZipFile {
    outputStream: Readable;
    addBuffer(buffer: Buffer, metadataPath: string, options?: { mtime?: Date; compress?: boolean }): void;
    addReadStream(input: Readable, metadataPath: string, options?: { mtime?: Date; compress?: boolean; size?: number }): void;
    end(options?: Record<string, never>, callback?: (totalSize: number) => void): void;
  }
}
