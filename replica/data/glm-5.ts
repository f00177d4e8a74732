import type { ModelSeed } from "./kimi-k2.5";

// A second, smaller model so that adding and switching models can be tried. Demo figures.
export const glm5: ModelSeed = {
  id: "z-ai/glm-5",
  name: "Z.ai: GLM 5",
  permaslug: "z-ai/glm-5-20260211",
  created: 1770768000,
  description: "GLM-5 is Z.ai's open-weight flagship model.",
  providers: [
    { provider: "Z.AI", tag: "z-ai/fp8", quantization: "fp8", inputPerM: "1.00", outputPerM: "3.20", cacheReadPerM: "0.20", status: 0, uptime: 99.4, latencyMs: 1100, throughput: 48, contextLength: 202752, maxCompletionTokens: 131072 },
    { provider: "DeepInfra", tag: "deepinfra/fp8", quantization: "fp8", inputPerM: "0.80", outputPerM: "2.56", status: 0, uptime: 99.7, latencyMs: 940, throughput: 39, contextLength: 202752, maxCompletionTokens: 65536 },
    { provider: "Novita", tag: "novita/bf16", quantization: "bf16", inputPerM: "1.20", outputPerM: "3.80", status: 0, uptime: 98.1, latencyMs: 1500, throughput: 30, contextLength: 202752, maxCompletionTokens: 65536 },
    { provider: "Chutes", tag: "chutes/fp8", quantization: "fp8", inputPerM: "0.70", outputPerM: "2.40", status: -1, uptime: 91.2, latencyMs: 2100, throughput: 25, contextLength: 202752, maxCompletionTokens: 65536 },
  ],
};
