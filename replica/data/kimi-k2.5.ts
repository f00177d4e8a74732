// Kimi K2.5's eleven providers on OpenRouter as the seed document recorded them (quantization,
// $/M prices, status, uptime). These are demo figures: the replica marks every answer as such.

export interface ProviderSeed {
  provider: string;
  tag: string;
  quantization: string | null;
  inputPerM: string;
  outputPerM: string;
  cacheReadPerM?: string;
  status: number;
  uptime: number;
  latencyMs: number;
  throughput: number;
  contextLength: number;
  maxCompletionTokens: number | null;
}

export interface ModelSeed {
  id: string;
  name: string;
  permaslug: string;
  created: number;
  description: string;
  providers: ProviderSeed[];
}

export const kimiK25: ModelSeed = {
  id: "moonshotai/kimi-k2.5",
  name: "MoonshotAI: Kimi K2.5",
  permaslug: "moonshotai/kimi-k2.5-20260127",
  created: 1769472000,
  description: "Kimi K2.5 is Moonshot AI's open-weight mixture-of-experts model.",
  providers: [
    { provider: "Chutes", tag: "chutes/int4", quantization: "int4", inputPerM: "0.40", outputPerM: "2.20", status: 0, uptime: 99.1, latencyMs: 1850, throughput: 38, contextLength: 262144, maxCompletionTokens: 65536 },
    { provider: "SiliconFlow", tag: "siliconflow/int4", quantization: "int4", inputPerM: "0.55", outputPerM: "2.50", status: 0, uptime: 98.2, latencyMs: 1420, throughput: 31, contextLength: 262144, maxCompletionTokens: 32768 },
    { provider: "AtlasCloud", tag: "atlas-cloud/int4", quantization: "int4", inputPerM: "0.60", outputPerM: "2.50", status: 0, uptime: 97.6, latencyMs: 1610, throughput: 27, contextLength: 262144, maxCompletionTokens: 65536 },
    { provider: "Parasail", tag: "parasail/int4", quantization: "int4", inputPerM: "0.60", outputPerM: "2.80", cacheReadPerM: "0.15", status: 0, uptime: 99.3, latencyMs: 980, throughput: 44, contextLength: 262144, maxCompletionTokens: 65536 },
    { provider: "Moonshot AI", tag: "moonshotai/int4", quantization: "int4", inputPerM: "0.60", outputPerM: "3.00", cacheReadPerM: "0.15", status: 0, uptime: 99.8, latencyMs: 1210, throughput: 36, contextLength: 262144, maxCompletionTokens: 262144 },
    { provider: "BaseTen", tag: "baseten/fp4", quantization: "fp4", inputPerM: "0.60", outputPerM: "3.00", status: -5, uptime: 29.8, latencyMs: 4200, throughput: 12, contextLength: 262144, maxCompletionTokens: 131072 },
    { provider: "Fireworks", tag: "fireworks", quantization: "unknown", inputPerM: "0.60", outputPerM: "3.00", cacheReadPerM: "0.30", status: 0, uptime: 99.0, latencyMs: 620, throughput: 92, contextLength: 262144, maxCompletionTokens: 262144 },
    { provider: "DeepInfra", tag: "deepinfra", quantization: "unknown", inputPerM: "0.45", outputPerM: "2.25", cacheReadPerM: "0.09", status: 0, uptime: 99.6, latencyMs: 890, throughput: 41, contextLength: 262144, maxCompletionTokens: 65536 },
    { provider: "Together", tag: "together", quantization: "unknown", inputPerM: "0.50", outputPerM: "2.80", status: 0, uptime: 98.9, latencyMs: 760, throughput: 58, contextLength: 262144, maxCompletionTokens: 131072 },
    { provider: "Novita", tag: "novita", quantization: "unknown", inputPerM: "0.60", outputPerM: "3.00", status: 0, uptime: 97.8, latencyMs: 1330, throughput: 33, contextLength: 262144, maxCompletionTokens: 131072 },
    { provider: "Venice", tag: "venice", quantization: "unknown", inputPerM: "0.75", outputPerM: "3.75", status: 0, uptime: 97.4, latencyMs: 1520, throughput: 29, contextLength: 131072, maxCompletionTokens: 32768 },
  ],
};
