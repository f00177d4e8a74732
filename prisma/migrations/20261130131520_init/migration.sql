-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "WatchedModel" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "addedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pollLeaseUntil" TIMESTAMPTZ(3),

    CONSTRAINT "WatchedModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PollCycle" (
    "id" SERIAL NOT NULL,
    "trigger" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "PollCycle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelPoll" (
    "id" SERIAL NOT NULL,
    "cycleId" INTEGER NOT NULL,
    "modelId" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3) NOT NULL,
    "observedAt" TIMESTAMPTZ(3),
    "ok" BOOLEAN NOT NULL,
    "errorKind" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL,
    "endpointCount" INTEGER,
    "demo" BOOLEAN NOT NULL DEFAULT false,
    "rawResponseId" INTEGER,

    CONSTRAINT "ModelPoll_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RawResponse" (
    "id" SERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RawResponse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Endpoint" (
    "id" SERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "providerName" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EndpointVersion" (
    "id" SERIAL NOT NULL,
    "endpointId" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "modelPermaslug" TEXT NOT NULL,
    "providerName" TEXT NOT NULL,
    "quantization" TEXT,
    "contextLength" INTEGER,
    "maxCompletionTokens" INTEGER,
    "maxPromptTokens" INTEGER,
    "supportedParameters" TEXT[],
    "supportsImplicitCaching" BOOLEAN,
    "pricing" JSONB NOT NULL,
    "extra" JSONB NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "EndpointVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EndpointSample" (
    "endpointId" INTEGER NOT NULL,
    "observedAt" TIMESTAMPTZ(3) NOT NULL,
    "versionId" INTEGER NOT NULL,
    "status" SMALLINT,
    "uptime5m" REAL,
    "uptime30m" REAL,
    "uptime1d" REAL,
    "latencyP50" REAL,
    "latencyP90" REAL,
    "throughputP50" REAL,
    "throughputP90" REAL,
    "inputPricePerM" DECIMAL(14,6),
    "outputPricePerM" DECIMAL(14,6),
    "cacheReadPricePerM" DECIMAL(14,6),

    CONSTRAINT "EndpointSample_pkey" PRIMARY KEY ("endpointId","observedAt")
);

-- CreateTable
CREATE TABLE "EndpointHourly" (
    "endpointId" INTEGER NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    "uptime30mMin" REAL,
    "uptime30mMean" REAL,
    "uptime30mMax" REAL,
    "latencyP50Mean" REAL,
    "throughputP50Mean" REAL,
    "inputPriceMin" DECIMAL(14,6),
    "inputPriceMax" DECIMAL(14,6),
    "outputPriceMin" DECIMAL(14,6),
    "outputPriceMax" DECIMAL(14,6),

    CONSTRAINT "EndpointHourly_pkey" PRIMARY KEY ("endpointId","hour")
);

-- CreateTable
CREATE TABLE "ChangeEvent" (
    "id" SERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "endpointId" INTEGER,
    "tag" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "observedAt" TIMESTAMPTZ(3) NOT NULL,
    "before" TEXT,
    "after" TEXT,

    CONSTRAINT "ChangeEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnownQuantization" (
    "id" SERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "quantization" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "recordedBy" TEXT NOT NULL,
    "recordedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnownQuantization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SavedView" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SavedView_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" SERIAL NOT NULL,
    "amountUsd" DECIMAL(14,2) NOT NULL,
    "startAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpendSnapshot" (
    "id" SERIAL NOT NULL,
    "observedAt" TIMESTAMPTZ(3) NOT NULL,
    "usage" DECIMAL(18,8) NOT NULL,
    "limit" DECIMAL(18,8),
    "limitRemaining" DECIMAL(18,8),
    "totalCredits" DECIMAL(18,8),
    "totalUsage" DECIMAL(18,8),

    CONSTRAINT "SpendSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageImport" (
    "id" SERIAL NOT NULL,
    "filename" TEXT NOT NULL,
    "importedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lines" INTEGER NOT NULL,
    "accepted" INTEGER NOT NULL,
    "duplicates" INTEGER NOT NULL,
    "rejected" INTEGER NOT NULL,
    "errors" JSONB NOT NULL,

    CONSTRAINT "UsageImport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageRecord" (
    "id" SERIAL NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "importId" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "modelId" TEXT,
    "dataset" TEXT,
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "costUsd" DECIMAL(18,8) NOT NULL,
    "occurredAt" TIMESTAMPTZ(3),

    CONSTRAINT "UsageRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ModelPoll_modelId_startedAt_idx" ON "ModelPoll"("modelId", "startedAt");

-- CreateIndex
CREATE INDEX "ModelPoll_cycleId_idx" ON "ModelPoll"("cycleId");

-- CreateIndex
CREATE UNIQUE INDEX "RawResponse_modelId_sha256_key" ON "RawResponse"("modelId", "sha256");

-- CreateIndex
CREATE UNIQUE INDEX "Endpoint_modelId_tag_key" ON "Endpoint"("modelId", "tag");

-- CreateIndex
CREATE UNIQUE INDEX "EndpointVersion_endpointId_sha256_key" ON "EndpointVersion"("endpointId", "sha256");

-- CreateIndex
CREATE INDEX "ChangeEvent_modelId_observedAt_idx" ON "ChangeEvent"("modelId", "observedAt");

-- CreateIndex
CREATE UNIQUE INDEX "KnownQuantization_modelId_tag_key" ON "KnownQuantization"("modelId", "tag");

-- CreateIndex
CREATE UNIQUE INDEX "SavedView_slug_key" ON "SavedView"("slug");

-- CreateIndex
CREATE INDEX "SavedView_modelId_idx" ON "SavedView"("modelId");

-- CreateIndex
CREATE INDEX "SpendSnapshot_observedAt_idx" ON "SpendSnapshot"("observedAt");

-- CreateIndex
CREATE UNIQUE INDEX "UsageRecord_dedupeKey_key" ON "UsageRecord"("dedupeKey");

-- CreateIndex
CREATE INDEX "UsageRecord_provider_idx" ON "UsageRecord"("provider");

-- CreateIndex
CREATE INDEX "UsageRecord_dataset_idx" ON "UsageRecord"("dataset");

-- AddForeignKey
ALTER TABLE "ModelPoll" ADD CONSTRAINT "ModelPoll_cycleId_fkey" FOREIGN KEY ("cycleId") REFERENCES "PollCycle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelPoll" ADD CONSTRAINT "ModelPoll_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "WatchedModel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelPoll" ADD CONSTRAINT "ModelPoll_rawResponseId_fkey" FOREIGN KEY ("rawResponseId") REFERENCES "RawResponse"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RawResponse" ADD CONSTRAINT "RawResponse_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "WatchedModel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Endpoint" ADD CONSTRAINT "Endpoint_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "WatchedModel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EndpointVersion" ADD CONSTRAINT "EndpointVersion_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "Endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EndpointSample" ADD CONSTRAINT "EndpointSample_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "Endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EndpointSample" ADD CONSTRAINT "EndpointSample_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EndpointVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageRecord" ADD CONSTRAINT "UsageRecord_importId_fkey" FOREIGN KEY ("importId") REFERENCES "UsageImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
