import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";

// What keeps the embedded engine small (see "Memory" in docs/operations.md).
//
// - Its settings: PostgreSQL's default shared_buffers (128 MB) lives inside PGlite's WebAssembly
//   memory, which never shrinks once grown. The database of a few watched models is tens of MB
//   and the host's page cache sits under it, so 16 MB of buffers costs no measurable speed and
//   saves about 110 MB resident (measured: bench/memory.md).
// - A new folder starts from a template: running initdb inside PGlite grows the process to about
//   750 MB (a second PGlite instance and the initdb module, whose memory stays reserved), which
//   would be the server's peak for its whole life. The template is the folder a fresh initdb
//   makes (no migrations: they are applied on top as on any start, so it never goes stale with
//   the schema), made once by `npm run db:template` and committed. It is unpacked into the folder
//   with plain file writes, before PGlite opens it. A template is tied to the PGlite version that
//   made it; with none for the installed version the folder is created by initdb as before, and
//   a line says how to make one.

export const EMBEDDED_START_PARAMS: string[] = [
  ...PGlite.defaultStartParams,
  ...["shared_buffers=16MB", "temp_buffers=2MB", "work_mem=4MB", "maintenance_work_mem=16MB"].flatMap((setting) => ["-c", setting]),
];

export const templateDir = path.join(process.cwd(), "prisma", "embedded-template");

function installedPgliteVersion(): string | null {
  try {
    const file = path.join(process.cwd(), "node_modules", "@electric-sql", "pglite", "package.json");
    return (JSON.parse(readFileSync(/*turbopackIgnore: true*/ file, "utf8")) as { version: string }).version;
  } catch {
    return null;
  }
}

export function templateFile(version: string): string {
  return path.join(templateDir, `pglite-${version}.tar.gz`);
}

let warned = false;

/** Unpacks the template into a folder that holds no database yet (no PG_VERSION); does nothing otherwise. */
export async function prepareEmbeddedDir(dir: string): Promise<"existing" | "template" | "initdb"> {
  if (existsSync(path.join(dir, "PG_VERSION"))) return "existing";
  const version = installedPgliteVersion();
  const file = version ? templateFile(version) : null;
  if (!file || !existsSync(/*turbopackIgnore: true*/ file)) {
    if (!warned) {
      warned = true;
      console.warn(
        `[db] no embedded database template for PGlite ${version ?? "(version unknown)"} in ${templateDir}: creating the database with initdb, ` +
          "which leaves the server about 400 MB larger until it restarts. Run `npm run db:template` to make one.",
      );
    }
    return "initdb";
  }
  await unpackTar(gunzipSync(readFileSync(/*turbopackIgnore: true*/ file)), dir);
  return "template";
}

/**
 * Writes a ustar archive's directories and regular files under dir. PG_VERSION, which PGlite
 * takes as "a database is here", is written last, so an unpacking cut short is redone whole.
 */
export async function unpackTar(tar: Buffer, dir: string): Promise<void> {
  const root = path.resolve(dir);
  let last: { target: string; body: Buffer } | null = null;
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const field = (start: number, length: number) => header.subarray(start, start + length).toString("utf8").replace(/\0.*$/s, "");
    const name = [field(345, 155), field(0, 100)].filter(Boolean).join("/");
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1) || "0";
    // PGlite names entries from the root ("/base/1/..."); joined onto "/" first, no name (not even "../x") leaves dir.
    const target = path.resolve(root, "." + path.posix.join("/", name));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === "5") await mkdir(target, { recursive: true });
    else if (type === "0") {
      await mkdir(path.dirname(target), { recursive: true });
      if (path.relative(root, target) === "PG_VERSION") last = { target, body };
      else await writeFile(target, body, { mode: 0o600 });
    } else throw new Error(`template entry of an unexpected type ${JSON.stringify(type)}: ${name}`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  if (!last) throw new Error("the template holds no PG_VERSION");
  await writeFile(last.target, last.body, { mode: 0o600 });
}
