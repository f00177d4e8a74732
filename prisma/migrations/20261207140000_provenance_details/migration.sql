-- Narrow judgements (issue 21, bench/provenance.md): a generation's row keeps its class, its view and
-- a pointer to its judgement's details (tag, reasons, verdicts, status, quantization), which are
-- stored once in "ProvenanceDetail" however many generations share them. A pass that changes every
-- class then writes small rows, not a copy of the same reasons per generation. No foreign key from
-- the judgement to its details: a per-row check would cost as much as the write, and details are
-- never deleted.

-- CreateTable
CREATE TABLE "ProvenanceDetail" (
    "digest" TEXT NOT NULL,
    "class" TEXT NOT NULL,
    "tag" TEXT,
    "ambiguous" BOOLEAN NOT NULL DEFAULT false,
    "reasons" TEXT[],
    "verdictBefore" TEXT,
    "verdictAfter" TEXT,
    "included" BOOLEAN,
    "status" INTEGER,
    "quantization" TEXT,

    CONSTRAINT "ProvenanceDetail_pkey" PRIMARY KEY ("digest")
);

-- The stored judgements' details move to the new table. A row written with a digest ("<hash of the
-- columns>:<view>") keeps its hash as the key, which the code computes the same way; one written
-- before digests were kept gets a key the code never computes, so the next pass writes it again.
ALTER TABLE "ProvenanceJudgement" ADD COLUMN "detail" TEXT;
UPDATE "ProvenanceJudgement"
   SET "detail" = COALESCE(NULLIF(split_part("digest", ':', 1), ''),
                           'legacy-' || md5(ROW("class", "tag", "ambiguous", "reasons", "verdictBefore", "verdictAfter", "included", "status", "quantization")::text));
INSERT INTO "ProvenanceDetail" ("digest", "class", "tag", "ambiguous", "reasons", "verdictBefore", "verdictAfter", "included", "status", "quantization")
SELECT DISTINCT ON ("detail") "detail", "class", "tag", "ambiguous", "reasons", "verdictBefore", "verdictAfter", "included", "status", "quantization"
  FROM "ProvenanceJudgement"
 ORDER BY "detail";

-- AlterTable
ALTER TABLE "ProvenanceJudgement" ALTER COLUMN "detail" SET NOT NULL,
  DROP COLUMN "tag",
  DROP COLUMN "ambiguous",
  DROP COLUMN "reasons",
  DROP COLUMN "verdictBefore",
  DROP COLUMN "verdictAfter",
  DROP COLUMN "included",
  DROP COLUMN "status",
  DROP COLUMN "quantization",
  DROP COLUMN "digest";
