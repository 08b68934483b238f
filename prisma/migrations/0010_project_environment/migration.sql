-- CreateTable
CREATE TABLE "ProjectEnvironment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "egress" TEXT NOT NULL DEFAULT '{}',
    "setupCommand" TEXT,
    "setupApprovedHash" TEXT,
    "setupApprovedById" TEXT,
    "setupApprovedAt" DATETIME,
    "setupSecrets" TEXT NOT NULL DEFAULT '{}',
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectEnvironment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ProjectEnvironment_projectId_key" ON "ProjectEnvironment"("projectId");

