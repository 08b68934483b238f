import { OFFLINE_EXAMPLES } from "@/server/domain/intent/offline-syntax";

/**
 * While the built-in offline model answers (issue #17.3): what it understands, in its own syntax.
 * A click puts the example in the task box, to edit or send.
 */
export function OfflineHelp({ onPick }: { onPick: (task: string) => void }) {
  return (
    <div className="offline-help small" data-testid="offline-help">
      <p className="muted">
        The built-in offline model follows fixed rules: put commands and file names in backticks. For
        plain-English tasks, configure a model in the project's Model settings. It understands:
      </p>
      <ul className="offline-examples">
        {OFFLINE_EXAMPLES.map((example) => (
          <li key={example.task}>
            <button
              type="button"
              className="link"
              onClick={() => onPick(example.task)}
              data-testid="offline-example"
            >
              <code>{example.task}</code>
            </button>{" "}
            <span className="muted">{example.does}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
