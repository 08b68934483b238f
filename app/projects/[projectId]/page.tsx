import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../_components/app-header";
import { ProjectView } from "../../_components/project-view";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  await requireUserId();
  const { projectId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page project">
        <ProjectView projectId={projectId} />
      </main>
    </>
  );
}
