import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../../_components/app-header";
import { ProjectSettingsView } from "../../../_components/project/project-settings-view";

export const dynamic = "force-dynamic";

export default async function ProjectSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  await requireUserId();
  const { projectId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page project">
        <ProjectSettingsView projectId={projectId} />
      </main>
    </>
  );
}
