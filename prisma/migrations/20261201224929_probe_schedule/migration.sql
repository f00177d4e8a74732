-- AlterTable
ALTER TABLE "ProbeRun" ADD COLUMN     "scheduledBy" TEXT;

-- CreateTable
CREATE TABLE "ProbeSchedule" (
    "modelId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "monthlyCapUsd" DECIMAL(14,6) NOT NULL,
    "lastChangeId" INTEGER NOT NULL DEFAULT 0,
    "pendingChange" TEXT,
    "lastQueuedAt" TIMESTAMPTZ(3),
    "skippedReason" TEXT,
    "skippedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProbeSchedule_pkey" PRIMARY KEY ("modelId")
);
