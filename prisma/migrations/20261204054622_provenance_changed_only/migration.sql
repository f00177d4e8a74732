-- Provenance writes only what a pass changed (issue 21, scale): each judgement keeps a digest of
-- itself and its view, and a pass that comes to the same judgement writes nothing; when a dataset
-- was last computed is kept per dataset instead of in every judgement row. Older rows have no
-- digest, so the next pass writes them once.

-- AlterTable
ALTER TABLE "ProvenanceJudgement" ADD COLUMN     "digest" TEXT;

-- CreateTable
CREATE TABLE "ProvenanceComputed" (
    "dataset" TEXT NOT NULL,
    "computedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProvenanceComputed_pkey" PRIMARY KEY ("dataset")
);
