import { expect, test } from "@playwright/test";
import { expectNoStack, expectSecurityHeaders, poll, REPLICA_URL, replicaControl, screenshot } from "./helpers";

// The fidelity probe over HTTP and in the browser, against the replica: bad input to every probe
// route, then a probe run from the model page (estimate, progress, verdicts and reasons), cancel.

const KIMI = "moonshotai/kimi-k2.5";
const API = `/api/models/${KIMI}/probes`;

test.describe("fidelity probe", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("bad input to every probe route answers a clear error naming the field", async ({ request }) => {
    const cases: Array<{ method: "GET" | "POST" | "PUT"; url: string; body?: unknown; status: number; message: RegExp }> = [
      { method: "POST", url: API, body: {}, status: 400, message: /^maxCostUsd: / },
      { method: "POST", url: API, body: { maxCostUsd: "two" }, status: 400, message: /^maxCostUsd: must be a decimal string/ },
      { method: "POST", url: API, body: { maxCostUsd: "0" }, status: 400, message: /^maxCostUsd: must be more than 0/ },
      { method: "POST", url: API, body: { maxCostUsd: "2", reference: "nobody" }, status: 400, message: /^reference: nobody is not an endpoint/ },
      { method: "POST", url: API, body: { maxCostUsd: "2", endpoints: ["nowhere"] }, status: 400, message: /^endpoints: nowhere is not an endpoint/ },
      { method: "POST", url: API, body: { maxCostUsd: "2", endpoints: [] }, status: 400, message: /^endpoints: / },
      { method: "POST", url: API, body: { maxCostUsd: "2", prompts: "mine" }, status: 400, message: /^prompts: / },
      { method: "POST", url: API, body: { maxCostUsd: "2", prompts: { id: 99999 } }, status: 400, message: /^prompts: no uploaded prompt set/ },
      { method: "POST", url: API, body: "{oops", status: 400, message: /not valid JSON/ },
      { method: "POST", url: "/api/models/nobody/nothing/probes", body: { maxCostUsd: "2" }, status: 404, message: /not watched/ },
      { method: "GET", url: `${API}?limit=0`, status: 400, message: /^limit: / },
      { method: "GET", url: "/api/models/nobody/nothing/probes", status: 404, message: /not watched/ },
      { method: "POST", url: `${API}/estimate`, body: { reference: "nobody" }, status: 400, message: /^reference: / },
      { method: "GET", url: "/api/probes/abc", status: 400, message: /^id: must be a probe id/ },
      { method: "GET", url: "/api/probes/999999", status: 404, message: /No probe 999999/ },
      { method: "POST", url: "/api/probes/abc/cancel", status: 400, message: /^id: / },
      { method: "POST", url: "/api/probes/999999/cancel", status: 404, message: /No probe 999999/ },
      { method: "POST", url: "/api/probes/prompt-sets", body: "not json\n{\"prompt\": 5}", status: 400, message: /bad lines/ },
      { method: "PUT", url: `${API}/schedule`, body: { monthlyCapUsd: "5.00" }, status: 400, message: /^enabled: must be true or false/ },
      { method: "PUT", url: `${API}/schedule`, body: { enabled: true, monthlyCapUsd: "lots" }, status: 400, message: /^monthlyCapUsd: must be a decimal string/ },
      { method: "PUT", url: "/api/models/nobody/nothing/probes/schedule", body: { enabled: true, monthlyCapUsd: "5" }, status: 404, message: /not watched/ },
      { method: "GET", url: "/api/models/nobody/nothing/probes/schedule", status: 404, message: /not watched/ },
      { method: "PUT", url: `${API}/settings`, body: { deltaNats: 0.002, temperature: 0.6, top_p: 0.95, top_k: null }, status: 400, message: /^min_p: must be a number/ },
      { method: "PUT", url: `${API}/settings`, body: { deltaNats: -1, temperature: 0.6, top_p: 0.95, top_k: null, min_p: null }, status: 400, message: /^deltaNats: must be at least/ },
      { method: "PUT", url: `${API}/settings`, body: { deltaNats: 0.002, temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, presence_penalty: "high" }, status: 400, message: /^presence_penalty: must be a number/ },
      { method: "PUT", url: `${API}/settings`, body: { deltaNats: 0.002, temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, thinking: true }, status: 400, message: /^thinking: the probe compares answers without reasoning/ },
      { method: "PUT", url: "/api/models/nobody/nothing/probes/settings", body: { deltaNats: 0.002, temperature: 0.6, top_p: 0.95, top_k: null, min_p: null }, status: 404, message: /not watched/ },
      { method: "GET", url: "/api/models/nobody/nothing/probes/settings", status: 404, message: /not watched/ },
    ];
    for (const c of cases) {
      const what = `${c.method} ${c.url} ${typeof c.body === "string" ? c.body : JSON.stringify(c.body ?? "")}`;
      const response = await request.fetch(c.url, {
        method: c.method,
        ...(c.body === undefined ? {} : { data: typeof c.body === "string" ? Buffer.from(c.body) : JSON.stringify(c.body) }),
        headers: { "content-type": "application/json" },
      });
      const text = await response.text();
      expect(response.status(), what).toBe(c.status);
      expect(JSON.parse(text).error.message, what).toMatch(c.message);
      expectSecurityHeaders(response, what);
      expectNoStack(text, what);
    }
    // Over the cap: 422 with the estimate, and nothing started.
    const over = await request.post(API, { data: { maxCostUsd: "0.000001" } });
    expect(over.status()).toBe(422);
    const body = await over.json();
    expect(body.estimateUsd).toMatch(/^0\.\d+$/);
    expect(body.error).toMatch(/is over the cap/);
    expect((await (await request.get(API)).json()).runs).toEqual([]);
    // A cross-site write is refused like every other change.
    const crossSite = await request.post(API, { data: { maxCostUsd: "2" }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
    expect(crossSite.status()).toBe(403);
  });

  test("Run probe waits until the page knows the latest run: a run started before then is never lost from view", async ({ page }) => {
    // A click while the page's first ask for the latest run was in flight started a run that the page
    // never showed: that ask was answered from before the run, and TanStack Query joins a refetch to a
    // first fetch still in flight instead of sending a new one (the flake that once failed the second
    // run below, clicked just after a reload). Hold that ask: the button stays disabled until it is answered.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === API && url.searchParams.get("limit") === "1",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`/models/${KIMI}#fidelity`);
    const button = page.getByRole("region", { name: "Fidelity" }).getByRole("button", { name: "Run probe" });
    await expect(button).toBeVisible();
    await expect(button).toBeDisabled();
    release();
    await expect(button).toBeEnabled();
  });

  test("run a probe from the page: estimate, progress, verdicts with reasons; a second run is cancelled", async ({ page, request }) => {
    test.setTimeout(300_000); // a whole probe run from the page: 43 s in a CI run before the on-policy reads doubled its requests
    await page.goto(`/models/${KIMI}#fidelity`);
    const section = page.getByRole("region", { name: "Fidelity" });
    await expect(section.getByLabel("Reference endpoint")).toHaveValue("moonshotai/int4");
    // Default: every endpoint with status 0 (BaseTen's -5 is not ticked). Keep four, to be quick.
    await expect(section.getByRole("checkbox", { name: "baseten/fp4" })).not.toBeChecked();
    for (const tag of ["siliconflow/int4", "atlas-cloud/int4", "parasail/int4", "deepinfra", "venice"]) {
      await section.getByRole("checkbox", { name: tag }).uncheck();
    }
    await expect(section.getByText(/^Estimated cost: \$0\.\d+ \(1025 requests over 41 prompts, reference calls included\)$/)).toBeVisible();
    await screenshot(page, "probe-settings");
    // No verdict yet in the providers table of the page that will run the probe.
    await expect(page.getByRole("table", { name: "Providers" }).getByRole("row").filter({ hasText: "Fireworks" })).not.toContainText("differs by more than Δ");
    const includedBefore = (await page.getByTestId("summary").textContent()) ?? "";
    await section.getByRole("button", { name: "Run probe" }).click();

    const run = section.getByRole("region", { name: /^Probe \d+$/ });
    // Creating the run stores its 1,025 planned requests first (per prompt the reference 9: 2 + 2 reads, a sampled draft, 2 + 2 reads after
    // it; each of the 4 endpoints 4: 2 reads from the prompt, 2 after the draft): slow on a busy machine.
    await expect(run.getByTestId("probe-progress")).toHaveText(/^\d+ of 1025 requests$/, { timeout: 60_000 });
    await expect(run.getByRole("progressbar", { name: "Probe progress" })).toBeVisible();
    await expect(section.getByRole("button", { name: "Run probe" })).toBeDisabled();
    await expect(run.getByTestId("probe-status")).toHaveText("done", { timeout: 240_000 });
    await expect(run.getByTestId("probe-progress")).toHaveText("1025 of 1025 requests");
    const row = (tag: string) => run.getByRole("row").filter({ has: page.getByRole("rowheader", { name: tag, exact: true }) });
    await expect(row("moonshotai/int4")).toContainText("reference");
    await expect(row("chutes/int4")).toContainText("equivalent within Δ");
    // The clear cases are decided at the first look of the sequential design (14 of 41 prompts, a 99.8% interval).
    await expect(row("chutes/int4")).toContainText(/within Δ: KL -?\d\.\de-\d+ nats\/token, 99\.8% interval \[-?\d\.\de-\d+, \d\.\de-\d+\], Δ 1\.0e-3; .*; decided early, at look 1 of 3 \(14 of 41 prompts\): its later requests were not sent/);
    await expect(row("chutes/int4").getByTestId("probe-look")).toHaveText(/· look 1 of 3$/);
    await expect(row("chutes/int4")).toContainText("56 / 164 (108 not sent)"); // four requests for each of the first wave's 14 prompts
    // Chutes answers a prefilled assistant message as a new turn: read on the greedy path only, and the row says so.
    await expect(row("chutes/int4").getByTestId("probe-on-policy")).toHaveText("no on-policy: new turn");
    await expect(row("chutes/int4")).toContainText("no on-policy positions: the endpoint answers a prefilled assistant message as a new turn");
    await expect(row("fireworks").getByTestId("probe-on-policy")).toHaveText(/^\d+ of them on-policy$/);
    await expect(run.getByTestId("probe-skipped")).toHaveText(/\(\d+ not needed: decided early\)$/);
    await expect(row("chutes/int4").getByTestId("probe-look")).toHaveAttribute("title", "Decided at look 1 of 3 of the sequential design, on 14 prompts: its later requests were not sent");
    await expect(row("chutes/int4")).toContainText("sent: temperature 0.6, top_p 0.95, thinking off");
    await expect(row("chutes/int4").getByTestId("probe-kl")).toHaveText(/^-?\d\.\de-\d+ \[-?\d\.\de-\d+, \d\.\de-\d+\]$/);
    await expect(row("fireworks")).toContainText("differs by more than Δ");
    await expect(row("fireworks")).toContainText(/differs by more than Δ: KL 0\.\d{3} nats\/token, \d+(\.\d)?% interval \[0\.\d{3}, 0\.\d{3}\], Δ 1\.0e-3/);
    await expect(row("together")).toContainText("prompt format differs");
    await expect(row("together")).toContainText(/prompt tokens differ from the reference's on (\d+) of \1 prompts/);
    await expect(row("novita")).toContainText("not pinned");
    await expect(row("novita")).toContainText("served by DeepInfra, Novita");
    await expect(run).toContainText("demo data");
    await run.scrollIntoViewIfNeeded();
    await screenshot(page, "probe-verdicts");

    // The API says the same.
    const listed = (await (await request.get(`${API}?limit=1`)).json()).runs[0];
    const detail = await (await request.get(`/api/probes/${listed.id}`)).json();
    expect(detail).toMatchObject({ status: "done", reference: "moonshotai/int4", progress: { done: 1025, total: 1025 }, deltaNats: 0.001 });
    const fireworks = detail.results.find((r: { tag: string }) => r.tag === "fireworks");
    expect(fireworks).toMatchObject({ verdict: "differs", method: "logprobs", promptTokensMatch: true, servedBy: ["Fireworks"] });
    // Decided at whichever look its interval cleared Δ (NVFP4 at 60Δ: the first, in every bench run), on that look's prompts.
    expect(fireworks.promptsCompared).toBe(fireworks.divergence.look.prompts);
    expect(detail.progress.skipped).toBeGreaterThan(0);
    expect(detail.costUsd).toMatch(/^0\.\d+$/);

    // The verdicts as rules: badges on every row; out of the box an endpoint that differs is excluded,
    // and the link can turn that off; the stricter rule excludes what did not match. The page that
    // ran the probe shows all of it without a reload (it re-renders what depends on verdicts).
    await expect(page.getByTestId("summary")).not.toHaveText(includedBefore);
    const providers = page.getByRole("table", { name: "Providers" });
    const providerRow = (name: string) => providers.getByRole("row").filter({ hasText: name });
    await expect(providerRow("Fireworks")).toContainText("differs by more than Δ");
    await expect(providerRow("Chutes")).toContainText("equivalent within Δ");
    const routingJson = page.getByLabel("Routing preferences JSON");
    const differsRule = page.getByRole("checkbox", { name: "Exclude endpoints the probe found to differ by more than Δ (on by default)" });
    await expect(differsRule).toBeChecked();
    await expect(providerRow("Fireworks")).toContainText(/Excluded: differs by more than Δ: KL 0\.\d{3} nats\/token.*; probe of \d{4}-\d{2}-\d{2}/);
    await expect(routingJson).not.toContainText('"fireworks"');
    // The CSV export carries each row's latest probe verdict and its date.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const csv = (await (await import("node:fs/promises")).readFile((await download.path()) as string, "utf8")).trim().split("\r\n");
    expect(csv[0]).toContain("provider,tag,verdict,probe verdict,probe of,");
    expect(csv.find((line) => line.startsWith("Fireworks,fireworks,"))).toMatch(/^Fireworks,fireworks,(?:"(?:[^"]|"")*"|[^,]*),differs,\d{4}-\d{2}-\d{2},/); // the rule's label, quoted: it has commas
    expect(csv.find((line) => line.startsWith("Chutes,chutes/int4,"))).toMatch(/^Chutes,chutes\/int4,(?:"(?:[^"]|"")*"|[^,]*),equivalent,\d{4}-\d{2}-\d{2},/);
    await differsRule.uncheck();
    await expect(page).toHaveURL(/xdiff=false/);
    await expect(routingJson).toContainText('"fireworks"');
    await page.getByRole("checkbox", { name: "Exclude endpoints whose latest probe did not match the reference (differs, prompt format, not pinned)" }).check();
    await expect(page).toHaveURL(/xprobe=true/);
    await expect(providerRow("Fireworks")).toContainText(/Excluded: differs by more than Δ: KL 0\.\d{3} nats\/token.*; probe of \d{4}-\d{2}-\d{2}/);
    await expect(providerRow("Together")).toContainText("Excluded: prompt format: prompt tokens differ");
    await expect(providerRow("Novita")).toContainText("Excluded: not pinned:");
    await expect(routingJson).not.toContainText('"fireworks"');
    await expect(routingJson).toContainText('"chutes/int4"');
    await screenshot(page, "probe-rule");
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Exclude endpoints whose latest probe did not match the reference (differs, prompt format, not pinned)" })).toBeChecked();
    await expect(routingJson).not.toContainText('"fireworks"');
    const routingApi = await (await request.get(`/api/models/${KIMI}/routing?xprobe=true`)).json();
    expect(JSON.stringify(routingApi)).not.toContain('"fireworks"');

    // A second run, cancelled from the page.
    await section.getByRole("button", { name: "Run probe" }).click();
    const second = section.getByRole("region", { name: `Probe ${listed.id + 1}` });
    await expect(second.getByTestId("probe-status")).toHaveText(/queued|running/, { timeout: 60_000 });
    const busy = await request.post(API, { data: { maxCostUsd: "2" } });
    expect(busy.status()).toBe(409);
    await second.getByRole("button", { name: "Cancel probe" }).click();
    await expect(second.getByTestId("probe-status")).toHaveText("cancelled", { timeout: 60_000 });
    await screenshot(page, "probe-cancelled");
  });

  test("the team's prompts: a bad JSONL file is refused line by line and stores nothing; a good one is picked and the run uses it", async ({ page, request }) => {
    test.setTimeout(75_000); // 21 s in a CI run
    await page.setViewportSize({ width: 1280, height: 900 });
    const setsBefore = (await (await request.get("/api/probes/prompt-sets")).json()).sets;
    expect(setsBefore[0]).toMatchObject({ id: "builtin", name: "Built-in", prompts: 41 });
    await page.goto(`/models/${KIMI}#fidelity`);
    const section = page.getByRole("region", { name: "Fidelity" });
    const picker = section.getByLabel("Prompt set");
    await expect(picker).toHaveValue("builtin");
    await expect(picker.locator("option:checked")).toHaveText(new RegExp(`^Built-in: 41 prompts, version ${setsBefore[0].version}$`));
    for (const tag of ["siliconflow/int4", "atlas-cloud/int4", "parasail/int4", "deepinfra", "venice", "fireworks", "together", "novita"]) {
      await section.getByRole("checkbox", { name: tag }).uncheck();
    }
    await expect(section.getByText(/^Estimated cost: \$0\.\d+ \(\d+ requests over 41 prompts/)).toBeVisible();

    const upload = section.getByLabel("Upload your prompts (JSONL)");
    const bad = ['{"prompt": "fine"}', "not json", '{"messages": [{"role": "robot", "content": "hi"}]}', '{"text": "where is the prompt?"}'].join("\n");
    await upload.setInputFiles({ name: "bad-prompts.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(bad) });
    const refused = section.getByRole("alert", { name: "Prompt upload" });
    await expect(refused).toContainText("Nothing was stored");
    await expect(refused).toContainText("Line 2: not valid JSON");
    await expect(refused).toContainText("Line 3: messages[0].role: must be system, user or assistant");
    await expect(refused).toContainText('Line 4: needs "messages"');
    await screenshot(page, "probe-prompts-refused");
    expect((await (await request.get("/api/probes/prompt-sets")).json()).sets).toEqual(setsBefore);
    await expect(picker).toHaveValue("builtin");

    const good = Array.from({ length: 10 }, (_, i) => JSON.stringify(i % 2 ? { prompt: `Team prompt ${i}: write one line about rivers.` } : { messages: [{ role: "system", content: "Be brief." }, { role: "user", content: `Team prompt ${i}: name a colour.` }] }));
    await upload.setInputFiles({ name: "team-prompts.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(good.join("\n")) });
    const stored = section.getByRole("status", { name: "Prompt upload" });
    await expect(stored).toContainText(/Stored “team-prompts”: 10 prompts, version [0-9a-f]{12}/);
    const sets = (await (await request.get("/api/probes/prompt-sets")).json()).sets;
    expect(sets).toHaveLength(setsBefore.length + 1);
    const mine = sets[1];
    expect(mine).toMatchObject({ name: "team-prompts", prompts: 10 });
    await expect(picker).toHaveValue(String(mine.id));
    await expect(picker.locator("option:checked")).toHaveText(`team-prompts (uploaded): 10 prompts, version ${mine.version}`);
    await expect(section.getByTestId("prompt-set-chosen")).toHaveText(new RegExp(`^10 prompts · version ${mine.version} · uploaded \\d{4}-`));
    // The estimate follows the chosen set: chutes/int4 against the reference, 13 logprobs requests a prompt (the reference 9, the endpoint 4).
    await expect(section.getByText("(130 requests over 10 prompts, reference calls included)", { exact: false })).toBeVisible();
    await screenshot(page, "probe-prompts-picked");

    await section.getByRole("button", { name: "Run probe" }).click();
    const run = section.getByRole("region", { name: /^Probe \d+$/ });
    await expect(run.getByTestId("probe-prompts")).toHaveText(`10 prompts (uploaded, version ${mine.version})`, { timeout: 60_000 });
    await expect(run.getByTestId("probe-status")).toHaveText("done", { timeout: 180_000 });
    await expect(run.getByTestId("probe-progress")).toHaveText("130 of 130 requests");
    const listed = (await (await request.get(`${API}?limit=1`)).json()).runs[0];
    expect(listed).toMatchObject({ promptSet: `upload:${mine.id}`, promptSetVersion: mine.version, promptCount: 10, status: "done" });
  });

  test("a file uploaded while the page is still fetching the list of prompt sets is picked and shown: the list is fetched again after the upload", async ({ page }) => {
    // The list's first fetch is answered from before the upload but reaches the page after it (held here).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/probes/prompt-sets",
      async (route) => {
        if (route.request().method() !== "GET") return route.continue();
        const early = await route.fetch();
        await held;
        await route.fulfill({ response: early }).catch(() => {}); // the page may have cancelled it by now: that is the fix
      },
      { times: 1 },
    );
    await page.goto(`/models/${KIMI}#fidelity`);
    const section = page.getByRole("region", { name: "Fidelity" });
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ prompt: `Late prompt ${i}: count to three.` }));
    const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/probes/prompt-sets" && r.request().method() === "POST");
    await section.getByLabel("Upload your prompts (JSONL)").setInputFiles({ name: "late-prompts.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(lines.join("\n")) });
    const set = await (await uploaded).json();
    expect(set).toMatchObject({ name: "late-prompts", prompts: 10 });
    release();
    const picker = section.getByLabel("Prompt set");
    await expect(picker).toHaveValue(String(set.id));
    await expect(picker.locator("option:checked")).toHaveText(`late-prompts (uploaded): 10 prompts, version ${set.version}`);
  });

  test("a run started elsewhere (a teammate's page, the schedule) shows on a page already open, without a reload, and the page follows it", async ({ page, request }) => {
    await page.goto(`/models/${KIMI}#fidelity`);
    const section = page.getByRole("region", { name: "Fidelity" });
    await expect(section.getByRole("button", { name: "Run probe" })).toBeEnabled();
    const started = await request.post(API, { data: { maxCostUsd: "2", endpoints: ["chutes/int4"] } });
    expect(started.status()).toBe(202);
    const { id } = await started.json();
    // The page asks for the latest run every 15 s; a run of one endpoint may be over by then.
    const run = section.getByRole("region", { name: `Probe ${id}` });
    await expect(run.getByTestId("probe-status")).toHaveText(/^(queued|running|done)$/, { timeout: 30_000 });
    await expect(run.getByTestId("probe-status")).toHaveText("done", { timeout: 120_000 });
    await expect(run.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "chutes/int4", exact: true }) })).toContainText("equivalent within Δ");
    await expect(section.getByRole("button", { name: "Run probe" })).toBeEnabled();
  });

  test("the scheduled re-probe: off by default, turned on with a monthly cap, a bad cap refused, turned off again", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await (await request.get(`${API}/schedule`)).json()).toMatchObject({ enabled: false, monthlyCapUsd: "5.00", skipped: null });
    await page.goto(`/models/${KIMI}#fidelity`);
    const form = page.getByRole("form", { name: "Scheduled re-probe" });
    const toggle = form.getByRole("checkbox", { name: "Re-probe weekly and when an endpoint appears or changes its quantization or tag" });
    const cap = form.getByLabel("Monthly cap (USD)");
    const state = form.getByTestId("schedule-state");
    await expect(state).toHaveText(/^Off · scheduled runs this month: \$0\.00 of the \$5\.00 cap$/);
    await expect(toggle).not.toBeChecked();

    await toggle.check();
    await cap.fill("two dollars");
    await form.getByRole("button", { name: "Save schedule" }).click();
    await expect(form.getByRole("alert")).toHaveText(/^monthlyCapUsd: must be a decimal string of dollars/);
    expect((await (await request.get(`${API}/schedule`)).json()).enabled).toBe(false); // nothing stored

    await cap.fill("3.50");
    await form.getByRole("button", { name: "Save schedule" }).click();
    await expect(state).toHaveText(/^On · scheduled runs this month: \$0\.00 of the \$3\.50 cap/);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, "probe-schedule-on");
    await page.reload();
    await expect(toggle).toBeChecked();
    await expect(cap).toHaveValue("3.50");
    expect(await (await request.get(`${API}/schedule`)).json()).toMatchObject({ enabled: true, monthlyCapUsd: "3.50" });

    // Off again, so the polls of the specs after this one queue nothing.
    await toggle.uncheck();
    await form.getByRole("button", { name: "Save schedule" }).click();
    await expect(state).toHaveText(/^Off · /);
    expect(await (await request.get(`${API}/schedule`)).json()).toMatchObject({ enabled: false, monthlyCapUsd: "3.50" });
  });
  test("the margin and sampler: Moonshot's defaults shown, a bad margin refused naming the field, the team's own saved and kept, back to the defaults", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const defaults = { source: "default", deltaNats: 0.001, sampler: { temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, presence_penalty: 0, frequency_penalty: 0, thinking: false } };
    expect(await (await request.get(`${API}/settings`)).json()).toMatchObject(defaults);
    try {
      await page.goto(`/models/${KIMI}#fidelity`);
      const form = page.getByRole("form", { name: "Margin and sampler" });
      const state = form.getByTestId("probe-margin-state");
      await expect(state).toHaveText(/^Next run: Δ 0\.001 nats\/token, temperature 0\.6, top_p 0\.95, thinking off · the defaults\./);
      const save = form.getByRole("button", { name: "Save margin and sampler" });
      await expect(save).toBeDisabled(); // nothing changed yet

      // Not a number: said before anything is sent. A number out of range: the server names the field.
      await form.getByLabel("Margin Δ (nats/token)").fill("a little");
      await save.click();
      await expect(form.getByRole("alert")).toHaveText('Margin Δ: "a little" is not a number');
      await form.getByLabel("Margin Δ (nats/token)").fill("0.5");
      await save.click();
      await expect(form.getByRole("alert")).toHaveText(/^deltaNats: must be at most 0\.1 nats\/token/);
      expect(await (await request.get(`${API}/settings`)).json()).toMatchObject(defaults); // nothing stored

      // The latest finished run (chutes/int4, certified equivalent above) cannot resolve a margin
      // below its interval's upper end: said before the team pays for a run.
      await form.getByLabel("Margin Δ (nats/token)").fill("0.00001");
      await expect(form.getByTestId("probe-margin-unresolvable")).toHaveText(
        /^At Δ 0\.00001, no endpoint of the latest run would have been certified: the lowest upper end of their intervals was \d\.\de-\d nats\/token\./,
      );
      await form.getByLabel("Margin Δ (nats/token)").fill("2e-3");
      await expect(form.getByTestId("probe-margin-unresolvable")).toHaveCount(0);
      await form.getByLabel("Temperature").fill("0.8");
      await form.getByLabel("top_k (blank: none)").fill("40");
      // A penalty outside OpenAI's range: the server names it, and nothing is stored.
      await form.getByLabel("frequency_penalty").fill("3");
      await save.click();
      await expect(form.getByRole("alert")).toHaveText(/^frequency_penalty: must be between -2 and 2/);
      expect(await (await request.get(`${API}/settings`)).json()).toMatchObject(defaults);
      await form.getByLabel("frequency_penalty").fill("0");
      await form.getByLabel("presence_penalty").fill("0.5");
      await save.click();
      await expect(state).toHaveText(
        /^Next run: Δ 0\.002 nats\/token, temperature 0\.8, top_p 0\.95, top_k 40, presence_penalty 0\.5, thinking off · set by the team .+ \(defaults: Δ 0\.001, temperature 0\.6, top_p 0\.95, thinking off\)\./,
      );
      await expect(form.getByRole("alert")).toHaveCount(0);
      await form.scrollIntoViewIfNeeded();
      await screenshot(page, "probe-margin-team", form);
      expect(await (await request.get(`${API}/settings`)).json()).toMatchObject({
        source: "team",
        deltaNats: 0.002,
        sampler: { temperature: 0.8, top_p: 0.95, top_k: 40, min_p: null, presence_penalty: 0.5, frequency_penalty: 0 },
      });

      // A teammate opening the page sees the same.
      await page.reload();
      await expect(form.getByLabel("Margin Δ (nats/token)")).toHaveValue("0.002");
      await expect(form.getByLabel("top_k (blank: none)")).toHaveValue("40");
      await expect(form.getByLabel("presence_penalty")).toHaveValue("0.5");

      await form.getByRole("button", { name: "Back to the defaults" }).click();
      await expect(state).toHaveText(/· the defaults\./);
      await expect(form.getByLabel("Margin Δ (nats/token)")).toHaveValue("0.001");
      await expect(form.getByRole("button", { name: "Back to the defaults" })).toHaveCount(0);
    } finally {
      // The specs after this one probe with the defaults.
      await request.delete(`${API}/settings`);
    }
    expect(await (await request.get(`${API}/settings`)).json()).toMatchObject(defaults);
  });

  test("a reference that answers a prefilled assistant message as a new turn: no endpoint is read on-policy, and each row says why", async ({ page, request }) => {
    test.setTimeout(300_000); // a probe of one endpoint, decided at the first look
    // The replica's reference set to answer a prefill as a new turn (recorded: it continues it).
    expect((await request.post(`${REPLICA_URL}/__replica/behaviour`, { data: { tag: "moonshotai/int4", prefill: "sometimes" } })).status()).toBe(400);
    expect((await request.post(`${REPLICA_URL}/__replica/behaviour`, { data: { tag: "moonshotai/int4", prefill: "new-turn" } })).ok()).toBe(true);
    try {
      await page.goto(`/models/${KIMI}#fidelity`);
      const section = page.getByRole("region", { name: "Fidelity" });
      await expect(section.getByRole("button", { name: "Run probe" })).toBeEnabled();
      // Parasail continues a prefill and serves the release. (One endpoint: this run becomes the
      // model's latest, whose verdicts the rules read in the specs after this one; Parasail's is
      // equivalent, as in the run before.)
      const started = await request.post(API, { data: { maxCostUsd: "2", endpoints: ["parasail/int4"] } });
      expect(started.status()).toBe(202);
      const run = section.getByRole("region", { name: `Probe ${(await started.json()).id}` });
      await expect(run.getByTestId("probe-status")).toHaveText("done", { timeout: 240_000 });
      const row = (tag: string) => run.getByRole("row").filter({ has: page.getByRole("rowheader", { name: tag, exact: true }) });
      const parasail = row("parasail/int4");
      await expect(parasail.getByTestId("probe-on-policy")).toHaveText("no on-policy: the reference starts a new turn");
      await expect(parasail.getByTestId("probe-on-policy")).toHaveAttribute("title", /^The reference itself answers a prefilled assistant message as a new turn/);
      await expect(parasail).toContainText(/no on-policy positions: the reference answers a prefilled assistant message as a new turn \(the token it ranked first after the prefix was its own draft's on \d+ of \d+ prompts\)/);
      // The verdict stands on the greedy path (a re-quantized endpoint still differs: tests/unit/probe-sequential.test.ts).
      await expect(parasail).toContainText("equivalent within Δ");
      await run.scrollIntoViewIfNeeded();
      await screenshot(page, "probe-reference-new-turn", section);
    } finally {
      expect((await request.post(`${REPLICA_URL}/__replica/behaviour`, { data: { tag: "moonshotai/int4", prefill: "continue" } })).ok()).toBe(true);
    }
  });
});
