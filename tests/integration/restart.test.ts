import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { latestProviders } from "@/lib/queries/providers";
import { seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";

describe("the embedded database on disk", () => {
  let replica: Replica;
  const dir = mkdtempSync(path.join(tmpdir(), "routeboard-restart-"));
  beforeAll(async () => {
    replica = await startReplica();
  });
  afterAll(async () => {
    await replica.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates its folder, and keeps every snapshot across a restart", async () => {
    const nested = path.join(dir, "not", "yet", "there");
    const first = await openDatabase({ embeddedDir: nested });
    await seedWatchedModels(first.db, ["moonshotai/kimi-k2.5"]);
    await runPollCycle(first.db, createOpenRouterClient({ baseUrl: replica.baseUrl }), { trigger: "test" });
    const before = await latestProviders(first.db, "moonshotai/kimi-k2.5");
    await first.close();

    const second = await openDatabase({ embeddedDir: nested });
    const after = await latestProviders(second.db, "moonshotai/kimi-k2.5");
    expect(after?.endpoints).toHaveLength(11);
    expect(after).toEqual(before);
    await second.close();
  });
});
