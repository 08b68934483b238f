/**
 * What a viewer sees where the answer controls would be: they watch the question live, but answering
 * is for members and above (the server refuses a viewer's answer too; this only says why nothing is here).
 */
export function ViewerNote() {
  return (
    <p className="muted small" data-testid="approval-viewer-note">
      You are watching as a viewer: only members, admins and owners of this team can answer.
    </p>
  );
}
