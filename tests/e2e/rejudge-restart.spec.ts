import AxeBuilder from "@axe-core/playwright";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { EMBEDDED_START_PARAMS } from "../../lib/db/embedded-template";
import { startReplica, type Replica } from "../../replica/server";
import { until } from "../helpers/poller-child";
import { freshDatabase, type TestDatabase } from "./database";
import { screenshot } from "./helpers";
import { CRON_SECRET, startSecuredServer, type SecuredServer } from "./secured-server";

// A re-judgement left behind across a restart (lib/provenance/rejudge-requests.ts): a server
// stops while a team note it recorded is not yet reflected in the classes, and its re-judgement
// had failed (the request row says why and when to try again). The next server on the same
// database shows the request on the provenance page, and its re-judgement job finishes it once it
// is due: the classes then cite the note, and the page no longer lists the request.

const KIMI = "moonshotai/kimi-k2.5";
const TEAM_NOTE = "quantization fp8 (team's record)";

let database: TestDatabase;
let replica: Replica;
let servers: SecuredServer[] = [];
test.beforeAll(async () => {
  [database, replica] = await Promise.all([freshDatabase("rejudge-restart"), startReplica(0)]);
});
test.afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  await Promise.all([database?.remove(), replica?.close()]);
});

/** Runs SQL on the stopped server's database, as the dead process left it. */
async function onDatabase(sql: string, params: unknown[]): Promise<void> {
  if (database.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql, params);
    } finally {
      await client.end();
    }
    return;
  }
  const pglite = await PGlite.create(database.env.EMBEDDED_DB_DIR, { startParams: EMBEDDED_START_PARAMS });
  try {
    await pglite.query(sql, params);
  } finally {
    await pglite.close();
  }
}

test("a re-judgement a stopped server left is shown after the restart and finished by the job when due", async ({ browser }) => {
  test.setTimeout(240_000); // two server starts, and the request due 45 s on, run at the job's next half-minute round
  const settings = { ...database.env, BASIC_AUTH: "", OPENROUTER_BASE_URL: replica.baseUrl };
  const first = await startSecuredServer(settings);
  servers.push(first);
  expect((await fetch(`${first.url}/api/poll`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } })).ok).toBe(true);
  const view = await fetch(`${first.url}/api/views`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Restart pipeline", modelId: KIMI, query: "xp=deepinfra" }),
  });
  const { slug } = (await view.json()) as { slug: string };
  const at = new Date(Date.now() + 60_000).toISOString();
  const lines = ["Novita", "Novita", "Chutes"].map((provider, i) =>
    JSON.stringify({ id: `gen-restart-${i}`, provider, model: KIMI, dataset: "RESTART", input_tokens: 100, output_tokens: 400, cost: "0.25", occurred_at: at }),
  );
  const imported = await fetch(`${first.url}/api/usage?view=${slug}&filename=restart.jsonl`, { method: "POST", headers: { "content-type": "text/plain" }, body: lines.join("\n") });
  expect(await imported.json()).toMatchObject({ accepted: 3 });
  servers = servers.filter((s) => s !== first);
  await first.stop();

  // What the stopped server left: the team's note, and the request to judge again whose pass failed.
  await onDatabase(
    `INSERT INTO "KnownQuantization" ("modelId", tag, quantization, note, "recordedBy") VALUES ($1, 'novita', 'fp8', 'their docs say fp8', 'test')`,
    [KIMI],
  );
  // Due 45 s on: the next server's first round (2 s after it starts) finds it not yet due, so the
  // page shows it; a later round (every 30 s) runs it.
  const retryAt = new Date(Date.now() + 45_000);
  await onDatabase(
    `INSERT INTO "ProvenanceRejudge" (scope, reason, "requestedAt", "startedAt", attempts, "lastError", "nextAt")
     VALUES ($1, 'a known quantization was recorded', now(), now(), 1, 'the server stopped during the pass', $2)`,
    [`model:${KIMI}`, retryAt.toISOString()],
  );

  const second = await startSecuredServer(settings);
  servers.push(second);
  const reasons = async () => ((await (await fetch(`${second.url}/api/provenance?id=gen-restart-0`)).json()) as { reasons: string[] }).reasons.join("\n");
  expect(await reasons()).not.toContain(TEAM_NOTE);
  const context = await browser.newContext({ baseURL: second.url }); // axe needs a page of its own context
  const page = await context.newPage();
  await page.goto("/provenance?dataset=RESTART");
  const panel = page.getByRole("region", { name: "Judging again" });
  await expect(panel).toContainText(`The generations under ${KIMI}’s saved views`);
  await expect(panel).toContainText("the last pass failed (the server stopped during the pass)");
  await screenshot(page, "provenance-rejudge-waiting", panel);
  const axe = await new AxeBuilder({ page }).include('[data-testid="rejudge-progress"]').analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await until("the job to finish the re-judgement", async () => (await reasons()).includes(TEAM_NOTE), 120_000);
  expect(Date.now()).toBeGreaterThanOrEqual(retryAt.getTime());
  await page.reload();
  await expect(page.getByRole("heading", { name: "Provenance", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Judging again" })).toHaveCount(0);
  expect((await (await fetch(`${second.url}/api/provenance?id=gen-restart-2`)).json()) as { class: string }).toMatchObject({ class: "unverified" });
  expect(second.logs()).toContain("re-judgement left by an earlier pass finished");
  await context.close();
  servers = servers.filter((s) => s !== second);
  await second.stop();
});
