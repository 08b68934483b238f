import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../_components/app-header";
import { TeamMembersView } from "../../_components/teams/team-members-view";

export const dynamic = "force-dynamic";

export default async function TeamMembersPage({ params }: { params: Promise<{ teamId: string }> }) {
  await requireUserId();
  const { teamId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page">
        <TeamMembersView teamId={teamId} />
      </main>
    </>
  );
}
