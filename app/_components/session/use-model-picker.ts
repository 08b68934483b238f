"use client";

import { useQuery } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";
import { pickedModel } from "./mode-switches";

/**
 * The project's model choices and what the picked one sends with a run. A remembered choice that is
 * no longer configured blocks sending with a message instead of quietly using another model.
 */
export function useModelPicker(projectId: string, key: string) {
  const trpc = useTRPC();
  const models = useQuery(trpc.settings.modelChoices.queryOptions({ projectId }));
  const picked = pickedModel(key, models.data?.choices);
  if ("model" in picked) {
    // The model that will answer is the offline one: picked, or the default when nothing is configured.
    const offline = picked.model ? picked.model.offline === true : models.data?.defaultOffline === true;
    return { models: models.data, model: picked.model, problem: null, offline };
  }
  const problem = models.data
    ? `The model you picked (${picked.unavailable}) is no longer configured: pick another.`
    : models.error
      ? `The model list could not be loaded: ${describeError(models.error)}`
      : "Loading the model list…";
  return { models: models.data, model: undefined, problem, offline: false };
}
