-- CreateTable
CREATE TABLE "ViewAlert" (
    "viewId" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "includedSet" BOOLEAN NOT NULL DEFAULT true,
    "routing" BOOLEAN NOT NULL DEFAULT true,
    "endpointChange" BOOLEAN NOT NULL DEFAULT true,
    "uptime" BOOLEAN NOT NULL DEFAULT true,
    "uptimeThreshold" DOUBLE PRECISION,
    "probeVerdict" BOOLEAN NOT NULL DEFAULT true,
    "state" JSONB,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ViewAlert_pkey" PRIMARY KEY ("viewId")
);

-- CreateTable
CREATE TABLE "BudgetAlert" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "spendSteps" BOOLEAN NOT NULL DEFAULT true,
    "runOut" BOOLEAN NOT NULL DEFAULT true,
    "keyLimitBelowUsd" DECIMAL(14,2),
    "state" JSONB,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BudgetAlert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" SERIAL NOT NULL,
    "eventId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "viewId" INTEGER,
    "viewSlug" TEXT,
    "viewName" TEXT,
    "modelId" TEXT,
    "summary" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "observedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readAt" TIMESTAMPTZ(3),

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertChannel" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT,
    "urlHint" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" SERIAL NOT NULL,
    "eventId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AlertEvent_eventId_key" ON "AlertEvent"("eventId");

-- CreateIndex
CREATE INDEX "AlertEvent_viewSlug_id_idx" ON "AlertEvent"("viewSlug", "id");

-- CreateIndex
CREATE INDEX "AlertEvent_readAt_idx" ON "AlertEvent"("readAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_status_nextAttemptAt_idx" ON "AlertDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_channelId_createdAt_idx" ON "AlertDelivery"("channelId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertDelivery_eventId_channelId_key" ON "AlertDelivery"("eventId", "channelId");

-- AddForeignKey
ALTER TABLE "ViewAlert" ADD CONSTRAINT "ViewAlert_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AlertEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "AlertChannel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
