-- CreateTable
CREATE TABLE "ProbeModelSetting" (
    "modelId" TEXT NOT NULL,
    "deltaNats" DOUBLE PRECISION NOT NULL,
    "temperature" DOUBLE PRECISION NOT NULL,
    "topP" DOUBLE PRECISION NOT NULL,
    "topK" INTEGER,
    "minP" DOUBLE PRECISION,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProbeModelSetting_pkey" PRIMARY KEY ("modelId")
);
