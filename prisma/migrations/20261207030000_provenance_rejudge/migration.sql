-- Re-judgements asked for and not yet done (lib/provenance/rejudge-requests.ts): a process that
-- dies mid-pass leaves its row, and the re-judgement job (lib/jobs/provenance-rejudge.ts) finishes it.

-- CreateTable
CREATE TABLE "ProvenanceRejudge" (
    "scope" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "requestedAt" TIMESTAMPTZ(3) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "startedAt" TIMESTAMPTZ(3),
    "leaseUntil" TIMESTAMPTZ(3),
    "judged" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAt" TIMESTAMPTZ(3),

    CONSTRAINT "ProvenanceRejudge_pkey" PRIMARY KEY ("scope")
);
