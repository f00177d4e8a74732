import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { maskUrl } from "@/lib/alerts/channels/store";
import { slackBody, webhookBody } from "@/lib/alerts/payload";
import { truncateUtf8 } from "@/lib/alerts/post";
import { newWebhookSecret, signDelivery } from "@/lib/alerts/sign";

const event = {
  eventId: "7b0f5c1e-0000-4000-8000-000000000001",
  kind: "endpoint",
  viewSlug: "prod-kimi",
  viewName: "Prod <kimi> & co",
  modelId: "moonshotai/kimi-k2.5",
  summary: "DeepInfra's prompt price rose from $0.45 to $0.50 per million tokens.",
  data: { endpoint: "deepinfra/fp8", field: "promptPrice", old: "0.45", new: "0.50" },
  observedAt: new Date("2026-12-01T10:00:00.000Z"),
};

describe("webhook signatures", () => {
  it("is HMAC-SHA256 of \"{timestamp}.{raw body}\", hex: the timestamp is signed with the body", () => {
    const secret = "whsec_test-secret-of-enough-length";
    const body = JSON.stringify(webhookBody(event, "https://routeboard.example"));
    const at = 1_796_119_200;
    const signature = signDelivery(secret, at, body);
    expect(signature).toBe("sha256=" + createHmac("sha256", secret).update(`${at}.${body}`).digest("hex"));
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    // Another time, body or secret gives another signature.
    expect(signDelivery(secret, at + 1, body)).not.toBe(signature);
    expect(signDelivery(secret, at, body + " ")).not.toBe(signature);
    expect(signDelivery("another-secret-entirely", at, body)).not.toBe(signature);
  });

  it("generates a new, long secret each time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe("what a channel receives", () => {
  it("webhook schema v1", () => {
    expect(webhookBody(event, "https://routeboard.example/")).toEqual({
      schemaVersion: 1,
      eventId: event.eventId,
      kind: "endpoint",
      occurredAt: "2026-12-01T10:00:00.000Z",
      view: { slug: "prod-kimi", name: "Prod <kimi> & co", url: "https://routeboard.example/v/prod-kimi" },
      model: "moonshotai/kimi-k2.5",
      summary: event.summary,
      data: event.data,
    });
    expect(webhookBody({ ...event, viewSlug: null, viewName: null }, "https://routeboard.example").view).toBeNull();
  });

  it("Slack: the sentence and an escaped link back to the view", () => {
    const body = slackBody(event, "https://routeboard.example");
    expect(body.text).toBe(`${event.summary} (Prod <kimi> & co)`);
    expect(body.blocks[0]).toEqual({
      type: "section",
      text: { type: "mrkdwn", text: `${event.summary}\n<https://routeboard.example/v/prod-kimi|Prod &lt;kimi&gt; &amp; co>` },
    });
  });
});

describe("small rules of delivery", () => {
  it("masks a URL to scheme, host and its last 4 characters", () => {
    expect(maskUrl("https://hooks.slack.com/services/T000/B000/abcdefghWXYZ")).toBe("https://hooks.slack.com/…WXYZ");
    expect(maskUrl("http://127.0.0.1:8080/hook?token=s3cr3t-t0k3n")).toBe("http://127.0.0.1:8080/…0k3n");
    expect(maskUrl("https://example.com/")).toBe("https://example.com");
  });

  it("keeps at most 1 KB of an answer without cutting a character", () => {
    expect(truncateUtf8(Buffer.from("a".repeat(3000)), 1024)).toHaveLength(1024);
    const text = "a".repeat(1023) + "é"; // é is 2 bytes: it does not fit whole
    expect(truncateUtf8(Buffer.from(text), 1024)).toBe("a".repeat(1023));
  });
});
