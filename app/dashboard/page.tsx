import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../_components/app-header";
import { TeamDashboard } from "../_components/dashboard/team-dashboard";

export const dynamic = "force-dynamic";

export default async function DashboardPage({ searchParams }: { searchParams: Promise<{ team?: string }> }) {
  await requireUserId();
  const { team } = await searchParams;
  return (
    <>
      <AppHeader />
      <main className="page wide">
        <TeamDashboard teamId={team} />
      </main>
    </>
  );
}
