-- CreateTable
CREATE TABLE "ProbeRun" (
    "id" SERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "referenceTag" TEXT NOT NULL,
    "endpointTags" TEXT[],
    "plan" JSONB NOT NULL,
    "promptSet" TEXT NOT NULL,
    "promptSetVersion" TEXT NOT NULL,
    "promptCount" INTEGER NOT NULL,
    "samplesPerPrompt" INTEGER NOT NULL,
    "alpha" DOUBLE PRECISION NOT NULL,
    "maxCostUsd" DECIMAL(14,6) NOT NULL,
    "estimateUsd" DECIMAL(20,12) NOT NULL,
    "costUsd" DECIMAL(20,12) NOT NULL DEFAULT 0,
    "uncertainUsd" DECIMAL(20,12) NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "demo" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ProbeRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProbeActiveRun" (
    "modelId" TEXT NOT NULL,
    "runId" INTEGER NOT NULL,

    CONSTRAINT "ProbeActiveRun_pkey" PRIMARY KEY ("modelId")
);

-- CreateTable
CREATE TABLE "ProbeRequest" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "promptIndex" INTEGER NOT NULL,
    "sample" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL,
    "maxTokens" INTEGER NOT NULL,
    "worstCaseUsd" DECIMAL(20,12) NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMPTZ(3),
    "servedProvider" TEXT,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "reasoningTokens" INTEGER,
    "text" TEXT,
    "tokens" JSONB,
    "topLogprobs" JSONB,
    "costUsd" DECIMAL(20,12),
    "generationId" TEXT,
    "finishReason" TEXT,
    "error" TEXT,
    "answeredAt" TIMESTAMPTZ(3),

    CONSTRAINT "ProbeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProbeResult" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "modelId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "method" TEXT,
    "statistic" DOUBLE PRECISION,
    "pValue" DOUBLE PRECISION,
    "rawPValue" DOUBLE PRECISION,
    "noiseFloor" DOUBLE PRECISION,
    "detectableEffect" DOUBLE PRECISION,
    "promptsCompared" INTEGER NOT NULL,
    "promptTokensMatch" BOOLEAN,
    "servedBy" TEXT[],
    "costUsd" DECIMAL(20,12) NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProbeResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProbePromptSet" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "prompts" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProbePromptSet_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProbeRun_modelId_createdAt_idx" ON "ProbeRun"("modelId", "createdAt");

-- CreateIndex
CREATE INDEX "ProbeRun_status_idx" ON "ProbeRun"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ProbeActiveRun_runId_key" ON "ProbeActiveRun"("runId");

-- CreateIndex
CREATE INDEX "ProbeRequest_runId_status_idx" ON "ProbeRequest"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ProbeRequest_runId_tag_role_method_promptIndex_sample_key" ON "ProbeRequest"("runId", "tag", "role", "method", "promptIndex", "sample");

-- CreateIndex
CREATE INDEX "ProbeResult_modelId_tag_createdAt_idx" ON "ProbeResult"("modelId", "tag", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ProbeResult_runId_tag_key" ON "ProbeResult"("runId", "tag");

-- AddForeignKey
ALTER TABLE "ProbeRequest" ADD CONSTRAINT "ProbeRequest_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ProbeRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProbeResult" ADD CONSTRAINT "ProbeResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ProbeRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
