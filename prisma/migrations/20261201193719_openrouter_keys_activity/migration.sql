-- CreateTable
CREATE TABLE "PipelineKey" (
    "id" SERIAL NOT NULL,
    "keyHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "chosenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PipelineKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KeyChange" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "keyName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,

    CONSTRAINT "KeyChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KeyUsageSnapshot" (
    "id" SERIAL NOT NULL,
    "keyHash" TEXT NOT NULL,
    "observedAt" TIMESTAMPTZ(3) NOT NULL,
    "usage" DECIMAL(18,8) NOT NULL,
    "usageDaily" DECIMAL(18,8),
    "limit" DECIMAL(18,8),
    "limitRemaining" DECIMAL(18,8),
    "disabled" BOOLEAN NOT NULL,
    "demo" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "KeyUsageSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActivityDay" (
    "date" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "modelPermaslug" TEXT,
    "providerName" TEXT NOT NULL,
    "usageUsd" DECIMAL(18,8) NOT NULL,
    "byokUsageUsd" DECIMAL(18,8),
    "requests" INTEGER NOT NULL,
    "promptTokens" BIGINT NOT NULL,
    "completionTokens" BIGINT NOT NULL,
    "reasoningTokens" BIGINT NOT NULL,
    "fetchedAt" TIMESTAMPTZ(3) NOT NULL,
    "demo" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ActivityDay_pkey" PRIMARY KEY ("date","model","endpointId")
);

-- CreateTable
CREATE TABLE "ActivityFetch" (
    "id" SERIAL NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "days" INTEGER,
    "rows" INTEGER,
    "error" TEXT,

    CONSTRAINT "ActivityFetch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KeyChange_at_idx" ON "KeyChange"("at");

-- CreateIndex
CREATE INDEX "KeyUsageSnapshot_keyHash_observedAt_idx" ON "KeyUsageSnapshot"("keyHash", "observedAt");

-- CreateIndex
CREATE INDEX "ActivityDay_providerName_date_idx" ON "ActivityDay"("providerName", "date");

-- CreateIndex
CREATE INDEX "ActivityFetch_startedAt_idx" ON "ActivityFetch"("startedAt");
