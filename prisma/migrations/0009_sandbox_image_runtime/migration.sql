-- CreateTable
CREATE TABLE "ProjectImageBuild" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "image" TEXT NOT NULL,
    "dockerfile" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "log" TEXT NOT NULL DEFAULT '',
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "ProjectImageBuild_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (plain ADD COLUMNs rather than a table rebuild: other migrations touch Project too)
ALTER TABLE "Project" ADD COLUMN "sandboxRuntime" TEXT NOT NULL DEFAULT 'runc';
ALTER TABLE "Project" ADD COLUMN "sandboxImage" TEXT;

-- CreateIndex
CREATE INDEX "ProjectImageBuild_projectId_startedAt_idx" ON "ProjectImageBuild"("projectId", "startedAt");

