import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { EMBEDDED_START_PARAMS, templateDir, templateFile } from "../lib/db/embedded-template";

// `npm run db:template`: makes the template a new embedded folder starts from (see
// lib/db/embedded-template.ts): the folder a fresh initdb makes, without migrations, for the
// installed PGlite version. Needed again only when PGlite is upgraded. This process grows to about
// 750 MB while initdb runs; the server never does.

const version = (JSON.parse(readFileSync(path.join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8")) as { version: string }).version;
const pglite = await PGlite.create({ startParams: EMBEDDED_START_PARAMS });
const dump = await pglite.dumpDataDir("gzip");
await pglite.close();
mkdirSync(templateDir, { recursive: true });
const file = templateFile(version);
writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
console.log(`[db:template] wrote ${path.relative(process.cwd(), file)} (PGlite ${version})`);
