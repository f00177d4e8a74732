-- Provenance (issue 21): the tag a usage record names, the view an import ran under, every saved
-- view's rules over time (revisions), the view each dataset ran under, and each generation's class.

-- AlterTable
ALTER TABLE "UsageImport" ADD COLUMN     "viewId" INTEGER;

-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "tag" TEXT;

-- CreateTable
CREATE TABLE "SavedViewRevision" (
    "id" SERIAL NOT NULL,
    "viewId" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SavedViewRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProvenanceViewChoice" (
    "dataset" TEXT NOT NULL,
    "viewId" INTEGER NOT NULL,
    "chosenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProvenanceViewChoice_pkey" PRIMARY KEY ("dataset")
);

-- CreateTable
CREATE TABLE "ProvenanceJudgement" (
    "recordId" INTEGER NOT NULL,
    "class" TEXT NOT NULL,
    "tag" TEXT,
    "ambiguous" BOOLEAN NOT NULL DEFAULT false,
    "reasons" TEXT[],
    "viewId" INTEGER,
    "verdictBefore" TEXT,
    "verdictAfter" TEXT,
    "included" BOOLEAN,
    "status" INTEGER,
    "quantization" TEXT,
    "judgedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProvenanceJudgement_pkey" PRIMARY KEY ("recordId")
);

-- CreateIndex
CREATE INDEX "UsageRecord_importId_id_idx" ON "UsageRecord"("importId", "id");

-- CreateIndex
CREATE INDEX "SavedViewRevision_viewId_validFrom_idx" ON "SavedViewRevision"("viewId", "validFrom");

-- CreateIndex
CREATE INDEX "ProvenanceJudgement_class_recordId_idx" ON "ProvenanceJudgement"("class", "recordId");

-- AddForeignKey
ALTER TABLE "UsageImport" ADD CONSTRAINT "UsageImport_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SavedViewRevision" ADD CONSTRAINT "SavedViewRevision_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProvenanceViewChoice" ADD CONSTRAINT "ProvenanceViewChoice_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProvenanceJudgement" ADD CONSTRAINT "ProvenanceJudgement_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "UsageRecord"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A view saved before revisions were kept: its rules are known from its last change on, not before.
INSERT INTO "SavedViewRevision" ("viewId", "query", "validFrom") SELECT id, query, "updatedAt" FROM "SavedView";
