import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { authOptions } from "@/server/auth/options";
import { AppHeader } from "../../_components/app-header";
import { InviteAccept } from "../../_components/teams/invite-accept";

export const dynamic = "force-dynamic";

/** An invitation link: signed out, sign in (or create an account) first and come back here. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const session = await getServerSession(authOptions);
  if (!(session?.user as { id?: string } | undefined)?.id)
    redirect(`/login?next=${encodeURIComponent(`/invite/${encodeURIComponent(token)}`)}`);
  return (
    <>
      <AppHeader />
      <main className="page">
        <InviteAccept token={token} />
      </main>
    </>
  );
}
