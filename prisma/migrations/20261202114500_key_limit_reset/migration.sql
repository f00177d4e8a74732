-- The pipeline key's limit reset as OpenRouter last reported it ("daily", "weekly", "monthly"; null: never).
ALTER TABLE "KeyUsageSnapshot" ADD COLUMN "limitReset" TEXT;
