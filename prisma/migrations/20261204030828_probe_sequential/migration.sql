-- The probe's sequential design (issue 19, item 7): a run's waves and α per look; each result's interval level
-- and the look that decided it. Older runs keep nulls (one look at 95%).

-- AlterTable
ALTER TABLE "ProbeResult" ADD COLUMN     "confidence" DOUBLE PRECISION,
ADD COLUMN     "look" INTEGER,
ADD COLUMN     "lookPrompts" INTEGER,
ADD COLUMN     "looks" INTEGER;

-- AlterTable
ALTER TABLE "ProbeRun" ADD COLUMN     "design" JSONB;
