-- AlterTable
ALTER TABLE "SavedView" ADD COLUMN     "createdBy" TEXT;
