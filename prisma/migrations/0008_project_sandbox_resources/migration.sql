-- AlterTable
ALTER TABLE "Project" ADD COLUMN "sandboxResources" TEXT NOT NULL DEFAULT '{}';
