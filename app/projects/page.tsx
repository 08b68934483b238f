import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../_components/app-header";
import { ProjectList } from "../_components/project-list";

export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  await requireUserId();
  return (
    <>
      <AppHeader />
      <main className="page">
        <ProjectList />
      </main>
    </>
  );
}
