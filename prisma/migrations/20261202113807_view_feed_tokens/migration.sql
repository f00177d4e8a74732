-- CreateTable
CREATE TABLE "ViewFeedToken" (
    "viewId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ViewFeedToken_pkey" PRIMARY KEY ("viewId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ViewFeedToken_tokenHash_key" ON "ViewFeedToken"("tokenHash");

-- AddForeignKey
ALTER TABLE "ViewFeedToken" ADD CONSTRAINT "ViewFeedToken_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;
