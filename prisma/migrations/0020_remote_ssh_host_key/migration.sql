-- AlterTable
ALTER TABLE "ProjectRemote" ADD COLUMN "sshKnownHosts" TEXT;

