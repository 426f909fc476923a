// An S3-compatible server for the tests, on this machine (s3rver: a Koa server that checks
// signatures and keeps objects as files; docs/decisions/039-s3-storage.md), started on a random
// loopback port, and a TCP proxy in front of it that can cut connections in the middle of an
// upload, as a failing service or network would.
import { mkdtempSync, rmSync } from "node:fs";
import { unlink } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3StorageConfig } from "~/lib/storage/s3-driver.server";

export const S3_TEST_BUCKET = "reseau-test";

export type TestS3Server = {
  /** The server's own address. */
  config: S3StorageConfig;
  /** The same server through the proxy (see `cutUploadsAfter`). */
  proxied: S3StorageConfig;
  /** Where the server keeps each object's bytes (a test may damage them there). */
  objectFile(key: string): string;
  /** From now on, each connection through the proxy is cut once it has sent `bytes` bytes (null: never). */
  cutUploadsAfter(bytes: number | null): void;
  /** Connections the proxy cut so far. */
  cuts(): number;
  stop(): Promise<void>;
};

export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "rt-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: S3_TEST_BUCKET }] });
  keepDirectoriesOnDelete(server);
  const { port } = await server.run();
  // Node closes an idle kept-alive connection after 5 s; a test's client that reuses it at that
  // moment reads ECONNRESET (seen on a loaded machine): the test server keeps them longer.
  if (server.httpServer) server.httpServer.keepAliveTimeout = 10 * 60_000;
  let limit: number | null = null;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    sockets.add(client).add(upstream);
    let sent = 0;
    let cut = false;
    client.on("data", (chunk: Buffer) => {
      const cutAt = limit;
      if (cut) return;
      if (cutAt !== null && sent + chunk.byteLength >= cutAt) {
        // Part of the request reaches the server, then both sides lose the connection (a reset, not
        // an orderly end: a server that read an end would take the part for a whole body).
        cut = true;
        cuts += 1;
        upstream.write(chunk.subarray(0, cutAt - sent), () => upstream.resetAndDestroy());
        client.resetAndDestroy();
        return;
      }
      sent += chunk.byteLength;
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", forget).on("error", forget);
    upstream.on("close", forget).on("error", forget);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  const base = { bucket: S3_TEST_BUCKET, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true };
  return {
    config: { ...base, endpoint: `http://127.0.0.1:${port}` },
    proxied: { ...base, endpoint: `http://127.0.0.1:${proxyPort}` },
    objectFile: (key) => path.join(directory, S3_TEST_BUCKET, `${key}._S3rver_object`),
    cutUploadsAfter(bytes) {
      limit = bytes;
      // Kept-alive connections have counted earlier requests: the next ones start afresh.
      for (const socket of sockets) socket.destroy();
    },
    cuts: () => cuts,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * S3 has no directories, but s3rver keeps keys as files and removes a key's folder when its last
 * file goes: a write of another key into that folder at that moment fails with ENOENT on a stream
 * s3rver does not listen to (an unhandled error in the test run). The test server deletes like S3.
 */
function keepDirectoriesOnDelete(server: S3rver) {
  type Store = {
    getResourcePath(bucket: string, key: string, resource: string): string;
    deleteObject(bucket: string, key: string): Promise<void>;
  };
  const store = (server as unknown as { store: Store }).store;
  store.deleteObject = async (bucket, key) => {
    const files = ["object", "object.md5", "metadata.json"].map((resource) => store.getResourcePath(bucket, key, resource));
    await Promise.all(
      files.map((file) =>
        unlink(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        }),
      ),
    );
  };
}
