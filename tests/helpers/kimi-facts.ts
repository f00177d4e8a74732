import { kimiK25 } from "@/replica/data/kimi-k2.5";
import type { EndpointFacts } from "@/lib/rules/evaluate";

/** The replica's Kimi K2.5 providers as the rules engine sees them (first poll's figures). */
export function kimiFacts(): EndpointFacts[] {
  return kimiK25.providers.map((p) => ({
    tag: p.tag,
    provider: p.provider,
    quantization: p.quantization,
    knownQuantization: null,
    status: p.status,
    uptime5m: p.uptime,
    uptime30m: p.uptime,
    uptime1d: p.uptime,
    inputPricePerM: p.inputPerM,
    outputPricePerM: p.outputPerM,
  }));
}
