-- Teams: invitation links, approvals delegated to a member, and every membership with a known role.
-- AlterTable
ALTER TABLE "Approval" ADD COLUMN "assignedToId" TEXT;

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "usedById" TEXT,
    "revokedAt" DATETIME,
    CONSTRAINT "Invite_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE INDEX "Invite_teamId_idx" ON "Invite"("teamId");


-- Memberships made before roles were enforced are their team's owners (every one so far is a personal team's).
UPDATE "Membership" SET "role" = 'owner' WHERE "role" NOT IN ('owner', 'admin', 'member', 'viewer');
