import "server-only";
import { z } from "zod";
import { RunRequest } from "@/server/api/run-request";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import { DecisionReason, EditedCommand } from "@/server/api/user-text";
import { CheckpointAnswer } from "@/server/domain/events/checkpoint-schema";
import { ChildProposal, ToolCallBody } from "@/server/domain/events/schema";
import { PRE_APPROVABLE_CATEGORIES, PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import { acceptIntention } from "@/server/orchestrator/accept-intention";
import { grantRunPreApproval } from "@/server/orchestrator/run-grants";
import { assertMayAnswerApproval, assignApproval, assignableMembers } from "@/server/teams/delegation";

export const runRouter = createRouter({
  start: sessionProcedure
    .requires("run")
    .input(RunRequest)
    .mutation(({ ctx, input }) =>
      ctx.app.orchestrator.startRun({
        sessionId: ctx.session.id,
        task: input.task,
        mode: input.mode,
        reasoning: input.reasoning,
        actor: { userId: ctx.user.id, name: ctx.user.name },
        modelOverrides: input.model,
        cliConfig: input.cliConfig,
      }),
    ),

  /** Seed 004's batch pre-approval for the rest of a running run, from the session bar. */
  preApprove: sessionProcedure
    .requires("approve")
    .input(
      z.object({
        runId: z.string().min(1),
        categories: z.array(PreApprovableCategory).min(1).max(PRE_APPROVABLE_CATEGORIES.length),
      }),
    )
    .mutation(({ ctx, input }) =>
      grantRunPreApproval(ctx.app.store, {
        sessionId: ctx.session.id,
        runId: input.runId,
        categories: input.categories,
        actor: { userId: ctx.user.id, name: ctx.user.name },
      }),
    ),

  /**
   * Issue #15: a person who may approve accepts a node that failed for want of evidence (no check,
   * or a check already green before the work) as verified, with a reason, after its run ended.
   */
  acceptAsVerified: sessionProcedure
    .requires("approve")
    .input(
      z.object({
        intentionId: z.string().min(1),
        reason: DecisionReason.pipe(z.string().min(1, "Say why you accept it as verified.")),
      }),
    )
    .mutation(({ ctx, input }) =>
      acceptIntention(ctx.app.store, {
        sessionId: ctx.session.id,
        intentionId: input.intentionId,
        reason: input.reason,
        actor: { userId: ctx.user.id, name: ctx.user.name },
      }),
    ),

  stop: sessionProcedure
    .requires("run")
    .input(z.object({ runId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      ctx.app.orchestrator.stop(ctx.session.id, input.runId, { userId: ctx.user.id, name: ctx.user.name }),
    ),
});

export const approvalRouter = createRouter({
  decide: sessionProcedure
    .requires("approve")
    .input(
      z.object({
        approvalId: z.string().min(1),
        decision: z.enum(["approved", "rejected"]),
        reason: DecisionReason.nullish(),
        children: z.array(ChildProposal).min(1).max(5).optional(),
        command: EditedCommand.optional(),
        /** A tool approval's call as the person edited it (same tool and path; re-gated before it runs). */
        call: ToolCallBody.optional(),
        /** Reject the action and end the run. */
        abort: z.boolean().optional(),
        answer: CheckpointAnswer.optional(),
        /** Approve this card's category (file or git changes) for the rest of its run too. */
        preApproveRun: z.array(PreApprovableCategory).max(PRE_APPROVABLE_CATEGORIES.length).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await assertMayAnswerApproval(ctx.db, {
        sessionId: ctx.session.id,
        approvalId: input.approvalId,
        actor: { userId: ctx.user.id, role: ctx.role },
      });
      return ctx.app.orchestrator.decide({
        sessionId: ctx.session.id,
        approvalId: input.approvalId,
        decision: input.decision,
        reason: input.reason || null,
        children: input.children,
        command: input.command,
        call: input.call,
        abort: input.abort,
        answer: input.answer,
        preApproveRun: input.preApproveRun,
        actor: { userId: ctx.user.id, name: ctx.user.name },
      });
    }),

  /** Delegate a waiting approval to a named member (null: back to anyone who may approve). */
  assign: sessionProcedure
    .requires("approve")
    .input(z.object({ approvalId: z.string().min(1), assigneeUserId: z.string().min(1).nullable() }))
    .mutation(({ ctx, input }) =>
      assignApproval(
        { db: ctx.db, log: ctx.app.store },
        {
          sessionId: ctx.session.id,
          teamId: ctx.session.project.teamId,
          approvalId: input.approvalId,
          assigneeUserId: input.assigneeUserId,
          actor: { userId: ctx.user.id, name: ctx.user.name, role: ctx.role },
        },
      ),
    ),

  /** Who an approval of this session can be delegated to. */
  assignees: sessionProcedure.query(({ ctx }) => assignableMembers(ctx.db, ctx.session.project.teamId)),
});
