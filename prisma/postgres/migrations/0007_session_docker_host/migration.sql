-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "dockerHost" TEXT;

