-- CreateTable
CREATE TABLE "ProjectRemote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "credentialKind" TEXT NOT NULL DEFAULT 'none',
    "username" TEXT,
    "credentialSealed" TEXT,
    "credentialHint" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'git',
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectRemote_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ProjectRemote_projectId_key" ON "ProjectRemote"("projectId");

