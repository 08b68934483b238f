import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../_components/app-header";
import { TeamProjects } from "../_components/teams/team-projects";

export const dynamic = "force-dynamic";

export default async function ProjectsPage({ searchParams }: { searchParams: Promise<{ team?: string }> }) {
  await requireUserId();
  const { team } = await searchParams;
  return (
    <>
      <AppHeader />
      <main className="page">
        <TeamProjects requestedTeamId={team ?? null} />
      </main>
    </>
  );
}
