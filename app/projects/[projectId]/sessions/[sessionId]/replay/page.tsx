import { requireUserId } from "@/server/auth/session";
import { AppHeader } from "../../../../../_components/app-header";
import { ReplayView } from "../../../../../_components/replay/replay-view";

export const dynamic = "force-dynamic";

export default async function ReplayPage({
  params,
}: {
  params: Promise<{ projectId: string; sessionId: string }>;
}) {
  await requireUserId();
  const { sessionId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page wide">
        <ReplayView sessionId={sessionId} />
      </main>
    </>
  );
}
