-- DropIndex
DROP INDEX "ProbeRequest_runId_tag_role_method_promptIndex_sample_key";

-- AlterTable
ALTER TABLE "ProbeRequest" ADD COLUMN     "cut" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "ProbeResult" ADD COLUMN     "onPolicyPositions" INTEGER,
ADD COLUMN     "prefill" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ProbeRequest_runId_tag_role_method_promptIndex_sample_cut_key" ON "ProbeRequest"("runId", "tag", "role", "method", "promptIndex", "sample", "cut");
