-- The equivalence probe: the margin and sampler of a run, cached tokens per answer, and each
-- result's divergence with its interval, A/A, detectable divergence and what was detected.
-- Older rows keep their verdicts (matches, inconclusive) and numbers; the new columns stay null.

-- AlterTable
ALTER TABLE "ProbeRun" ADD COLUMN     "deltaNats" DOUBLE PRECISION,
ADD COLUMN     "sampler" JSONB;

-- AlterTable
ALTER TABLE "ProbeRequest" ADD COLUMN     "cachedTokens" INTEGER;

-- AlterTable
ALTER TABLE "ProbeResult" ADD COLUMN     "deltaNats" DOUBLE PRECISION,
ADD COLUMN     "klNats" DOUBLE PRECISION,
ADD COLUMN     "klLowNats" DOUBLE PRECISION,
ADD COLUMN     "klHighNats" DOUBLE PRECISION,
ADD COLUMN     "tv" DOUBLE PRECISION,
ADD COLUMN     "tvLow" DOUBLE PRECISION,
ADD COLUMN     "tvHigh" DOUBLE PRECISION,
ADD COLUMN     "aaKlNats" DOUBLE PRECISION,
ADD COLUMN     "aaKlLowNats" DOUBLE PRECISION,
ADD COLUMN     "aaKlHighNats" DOUBLE PRECISION,
ADD COLUMN     "aaTv" DOUBLE PRECISION,
ADD COLUMN     "referenceUnstable" BOOLEAN,
ADD COLUMN     "detectableNats" DOUBLE PRECISION,
ADD COLUMN     "top1Agreement" DOUBLE PRECISION,
ADD COLUMN     "positions" INTEGER,
ADD COLUMN     "sampler" JSONB,
ADD COLUMN     "logprobsKind" JSONB,
ADD COLUMN     "cachedTokens" INTEGER;
