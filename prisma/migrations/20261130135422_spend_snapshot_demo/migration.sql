-- AlterTable
ALTER TABLE "SpendSnapshot" ADD COLUMN     "demo" BOOLEAN NOT NULL DEFAULT false;
