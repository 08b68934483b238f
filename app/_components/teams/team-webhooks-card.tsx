"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * A team's outgoing webhooks (issue #21.4): add a URL (its signing secret is shown once), remove one,
 * and read each delivery with every attempt. Only for those who may manage webhooks (admins).
 */
export function TeamWebhooksCard({ teamId }: { teamId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hooks = useQuery(trpc.team.webhooks.queryOptions({ teamId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.webhooks.queryKey({ teamId }) });
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const add = useMutation(
    trpc.team.addWebhook.mutationOptions({
      onSuccess: (created) => {
        setSecret({ url: created.url, secret: created.secret });
        setUrl("");
        return refresh();
      },
    }),
  );
  const remove = useMutation(trpc.team.removeWebhook.mutationOptions({ onSuccess: () => refresh() }));

  return (
    <section className="card" aria-label="Webhooks" data-testid="team-webhooks">
      <h2>Webhooks</h2>
      <p className="muted small">
        Arbor posts run started, waiting for a person and ended to each address, signed with its secret (
        <code>X-Arbor-Signature: sha256=…</code> over <code>timestamp.body</code>, with{" "}
        <code>X-Arbor-Timestamp</code>), and retries a failed delivery with backoff.
      </p>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate({ teamId, url });
        }}
      >
        <input
          aria-label="Webhook address"
          data-testid="webhook-url"
          placeholder="https://chat.example.com/hooks/arbor"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <button type="submit" className="primary" data-testid="add-webhook" disabled={add.isPending}>
          Add webhook
        </button>
      </form>
      {add.error ? (
        <p role="alert" className="error">
          {describeError(add.error)}
        </p>
      ) : null}
      {secret ? (
        <p data-testid="webhook-secret-box">
          The signing secret for {secret.url} (shown once):{" "}
          <code data-testid="webhook-secret">{secret.secret}</code>
        </p>
      ) : null}
      {hooks.error ? <p className="error">{describeError(hooks.error)}</p> : null}
      {(hooks.data ?? []).map((hook) => (
        <article key={hook.id} data-testid="webhook">
          <h3 className="small">
            <code>{hook.url}</code>{" "}
            <button type="button" onClick={() => remove.mutate({ teamId, webhookId: hook.id })}>
              Remove
            </button>
          </h3>
          {hook.deliveries.length === 0 ? <p className="muted small">No deliveries yet.</p> : null}
          <ul className="plain small" data-testid="webhook-deliveries">
            {hook.deliveries.map((delivery) => (
              <li key={delivery.id} data-testid="webhook-delivery">
                {delivery.event} — {delivery.status}
                {delivery.status === "PENDING" && delivery.attempts > 0
                  ? `, next try ${new Date(delivery.nextAttemptAt).toLocaleTimeString()}`
                  : ""}
                <ul className="plain">
                  {delivery.log.map((attempt) => (
                    <li key={attempt.id} data-testid="webhook-attempt">
                      {new Date(attempt.at).toLocaleString()}:{" "}
                      {attempt.httpStatus === null ? "no answer" : `HTTP ${attempt.httpStatus}`}
                      {attempt.error ? ` (${attempt.error})` : ""}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
