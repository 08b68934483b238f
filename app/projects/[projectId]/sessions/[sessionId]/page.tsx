import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../../../_components/app-header";
import { SessionView } from "../../../../_components/session/session-view";

export const dynamic = "force-dynamic";

export default async function SessionPage({
  params,
}: {
  params: Promise<{ projectId: string; sessionId: string }>;
}) {
  await requireUserId();
  const { sessionId } = await params;
  return (
    // The workspace fills the viewport (app/_components/workspace/workspace.css).
    <div className="workspace-shell">
      <AppHeader />
      <main className="workspace-main">
        <SessionView sessionId={sessionId} />
      </main>
    </div>
  );
}
