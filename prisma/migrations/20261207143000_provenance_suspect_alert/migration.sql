-- A saved view's alert when generations judged trusted under it turn suspect (issue 21): the
-- condition, on by default like the others, and the counts a re-judgement has not said yet.

-- AlterTable
ALTER TABLE "ViewAlert" ADD COLUMN     "provenanceSuspect" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "ProvenanceSuspectPending" (
    "viewId" INTEGER NOT NULL,
    "samples" INTEGER NOT NULL,
    "inputTokens" DECIMAL(30,0) NOT NULL,
    "outputTokens" DECIMAL(30,0) NOT NULL,
    "costUsd" DECIMAL(30,8) NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProvenanceSuspectPending_pkey" PRIMARY KEY ("viewId")
);

-- AddForeignKey
ALTER TABLE "ProvenanceSuspectPending" ADD CONSTRAINT "ProvenanceSuspectPending_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;
