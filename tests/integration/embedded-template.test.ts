import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareEmbeddedDir, unpackTar } from "@/lib/db/embedded-template";
import { openDatabase } from "@/lib/db/engines";

// A new embedded folder starts from the committed template (not from initdb, whose memory would
// stay resident in the server), with the small settings, on the installed PGlite.

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "routeboard-template-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One ustar header block for a regular file, written from the format's description. */
function tarEntry(name: string, body: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, "utf8");
  header.write("0000600\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(body.length.toString(8).padStart(11, "0") + "\0", 124);
  header.write("00000000000\0", 136);
  header.write("0", 156);
  header.write("ustar\u000000", 257);
  header.fill(" ", 148, 156);
  const sum = header.reduce((a, b) => a + b, 0);
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  const data = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  data.write(body);
  return Buffer.concat([header, data]);
}

describe("the embedded database template", () => {
  it("exists for the installed PGlite (run `npm run db:template` after upgrading it)", () => {
    const version = (JSON.parse(readFileSync("node_modules/@electric-sql/pglite/package.json", "utf8")) as { version: string }).version;
    expect(existsSync(`prisma/embedded-template/pglite-${version}.tar.gz`)).toBe(true);
  });

  it("makes a new folder a database that migrates, opens with 16 MB of buffers, keeps what is written, and is unpacked once", async () => {
    const dir = newDir();
    const first = await openDatabase({ embeddedDir: dir });
    try {
      expect(await first.db.$queryRawUnsafe("SHOW shared_buffers")).toEqual([{ shared_buffers: "16MB" }]);
      await first.db.watchedModel.create({ data: { id: "acme/template-check" } });
    } finally {
      await first.close();
    }
    expect(await prepareEmbeddedDir(dir)).toBe("existing");
    const second = await openDatabase({ embeddedDir: dir });
    try {
      expect((await second.db.watchedModel.findMany({ select: { id: true } })).map((m) => m.id)).toContain("acme/template-check");
    } finally {
      await second.close();
    }
  });

  it("redoes an unpacking cut short (no PG_VERSION yet) whole", async () => {
    const dir = newDir();
    expect(await prepareEmbeddedDir(dir)).toBe("template");
    unlinkSync(path.join(dir, "PG_VERSION"));
    expect(await prepareEmbeddedDir(dir)).toBe("template");
    const opened = await openDatabase({ embeddedDir: dir });
    await opened.close();
  });

  it("keeps an archive entry that points outside the folder inside it", async () => {
    const dir = newDir();
    const tar = Buffer.concat([tarEntry("../escaped", "x"), tarEntry("PG_VERSION", "18\n"), Buffer.alloc(1024)]);
    await unpackTar(tar, path.join(dir, "inner"));
    expect(existsSync(path.join(dir, "escaped"))).toBe(false);
    expect(readFileSync(path.join(dir, "inner", "escaped"), "utf8")).toBe("x");
    expect(readFileSync(path.join(dir, "inner", "PG_VERSION"), "utf8")).toBe("18\n");
  });
});
