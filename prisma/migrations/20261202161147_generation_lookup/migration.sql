-- Provenance enrichment (issue 21, item 4): a usage record may arrive with only its generation id;
-- its provider is then looked up from OpenRouter's /generation by a job whose state is this table.

-- AlterTable
ALTER TABLE "UsageRecord" ALTER COLUMN "provider" DROP NOT NULL;

-- CreateTable
CREATE TABLE "GenerationLookup" (
    "recordId" INTEGER NOT NULL,
    "generationId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "answer" TEXT,
    "answeredAt" TIMESTAMPTZ(3),
    "demo" BOOLEAN NOT NULL DEFAULT false,
    "missing" TEXT[],

    CONSTRAINT "GenerationLookup_pkey" PRIMARY KEY ("recordId")
);

-- CreateIndex
CREATE INDEX "GenerationLookup_state_nextAt_idx" ON "GenerationLookup"("state", "nextAt");

-- AddForeignKey
ALTER TABLE "GenerationLookup" ADD CONSTRAINT "GenerationLookup_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "UsageRecord"("id") ON DELETE CASCADE ON UPDATE CASCADE;
