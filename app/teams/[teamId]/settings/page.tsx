import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../../_components/app-header";
import { TeamSettingsView } from "../../../_components/settings/team-settings-view";

export const dynamic = "force-dynamic";

export default async function TeamSettingsPage({ params }: { params: Promise<{ teamId: string }> }) {
  await requireUserId();
  const { teamId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page">
        <TeamSettingsView teamId={teamId} />
      </main>
    </>
  );
}
