-- CreateTable
CREATE TABLE "ModelSettings" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT,
    "projectId" TEXT,
    "provider" TEXT,
    "baseUrl" TEXT,
    "modelName" TEXT,
    "timeoutMs" INTEGER,
    "apiKeySealed" TEXT,
    "apiKeyHint" TEXT,
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ModelSettings_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ModelSettings_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ModelSettings_teamId_key" ON "ModelSettings"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelSettings_projectId_key" ON "ModelSettings"("projectId");

