"use client";

import "./workspace.css";
import { type ReactNode, useRef, useState } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import { ShortcutHelp } from "./shortcut-help";
import { useNarrow } from "./use-narrow";
import { useWorkspaceKeys } from "./use-workspace-keys";
import { isSideTab, NARROW_ONLY_TABS, SIDE_TABS, type SideTab, type WorkspaceTab } from "./workspace-tabs";

interface WorkspacePanes {
  /** The top bar: where the session is and what its run is doing. */
  top: ReactNode;
  /** The conversation and the task box. */
  chat: ReactNode;
  /** What waits for the person: always in sight, above the tree (or above the tabs when narrow). */
  pinned: ReactNode;
  /** The intention tree with its nodes' cycles, checks and evidence. */
  tree: ReactNode;
  /** The side tabs' contents; `active` says which one is on screen (a tab may fetch only then). */
  side(active: WorkspaceTab): Record<SideTab, ReactNode>;
  /** A small count or mark next to a tab's name (e.g. the number of changed files). */
  marks?: Partial<Record<WorkspaceTab, ReactNode>>;
}

/**
 * The session page as an IDE: conversation | intention tree | Changes, Files, Terminal, Replay. The
 * panes are resizable and remember their sizes (react-resizable-panels, kept in localStorage); below
 * 900 px they stack behind one row of tabs.
 */
export function WorkspaceLayout(panes: WorkspacePanes) {
  const narrow = useNarrow();
  const [tab, setTab] = useState<WorkspaceTab>("changes");
  const [help, setHelp] = useState(false);
  const chatRef = useRef<HTMLDivElement>(null);
  const treeRef = useRef<HTMLDivElement>(null);

  useWorkspaceKeys({
    tree: treeRef,
    chat: chatRef,
    onTab: setTab,
    onShowPane: (pane) => {
      if (narrow) setTab(pane);
    },
    onHelp: () => setHelp((open) => !open),
  });

  if (narrow === null) return null;
  // On a wide screen the chat and the tree are always shown; a narrow tab choice of either falls back.
  const sideTab: SideTab = isSideTab(tab) ? tab : "changes";
  const tabs = narrow ? [...NARROW_ONLY_TABS, ...SIDE_TABS] : SIDE_TABS;
  const active: WorkspaceTab = narrow ? tab : sideTab;

  const tabList = (
    <div className="workspace-tabs" role="tablist" aria-label="Workspace" data-testid="workspace-tabs">
      {tabs.map((entry) => (
        <button
          key={entry.id}
          type="button"
          role="tab"
          id={`workspace-tab-${entry.id}`}
          aria-selected={active === entry.id}
          aria-controls={`workspace-panel-${entry.id}`}
          tabIndex={active === entry.id ? 0 : -1}
          className={active === entry.id ? "workspace-tab active" : "workspace-tab"}
          onClick={() => setTab(entry.id)}
          data-testid={`tab-${entry.id}`}
        >
          {entry.label}
          {panes.marks?.[entry.id]}
        </button>
      ))}
    </div>
  );
  const panel = (id: WorkspaceTab, content: ReactNode, ref?: React.Ref<HTMLDivElement>) => (
    <div
      key={id}
      ref={ref}
      role="tabpanel"
      id={`workspace-panel-${id}`}
      aria-labelledby={`workspace-tab-${id}`}
      hidden={active !== id}
      className="workspace-tabpanel"
      data-testid={`workspace-panel-${id}`}
    >
      {content}
    </div>
  );
  const sideContent = panes.side(active);
  const sidePanels = SIDE_TABS.map((entry) => panel(entry.id, sideContent[entry.id]));
  const helpDialog = <ShortcutHelp open={help} onClose={() => setHelp(false)} />;
  const top = (
    <div className="workspace-top">
      {panes.top}
      <button
        type="button"
        className="secondary"
        onClick={() => setHelp(true)}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        data-testid="shortcuts-open"
      >
        ?
      </button>
    </div>
  );

  if (narrow) {
    return (
      <div className="workspace narrow" data-testid="workspace" data-layout="stacked">
        {top}
        {panes.pinned}
        {tabList}
        {panel("chat", panes.chat, chatRef)}
        {panel("tree", panes.tree, treeRef)}
        {sidePanels}
        {helpDialog}
      </div>
    );
  }
  return (
    <div className="workspace wide" data-testid="workspace" data-layout="panes">
      {top}
      <WidePanes
        chat={<div ref={chatRef}>{panes.chat}</div>}
        centre={
          <>
            {panes.pinned}
            <div ref={treeRef}>{panes.tree}</div>
          </>
        }
        side={
          <>
            {tabList}
            {sidePanels}
          </>
        }
      />
      {helpDialog}
    </div>
  );
}

/** The layout's key in localStorage; panel ids below must stay stable for a saved layout to apply. */
const LAYOUT_ID = "arbor-session-workspace";

function WidePanes({ chat, centre, side }: { chat: ReactNode; centre: ReactNode; side: ReactNode }) {
  const { defaultLayout, onLayoutChanged } = useDefaultLayout({ id: LAYOUT_ID, storage: localStorage });
  return (
    <Group
      id={LAYOUT_ID}
      className="workspace-group"
      defaultLayout={defaultLayout}
      onLayoutChanged={onLayoutChanged}
    >
      <Panel id="chat" className="workspace-pane" defaultSize="27%" minSize={260}>
        <section className="pane-scroll" aria-label="Conversation" data-testid="pane-chat">
          {chat}
        </section>
      </Panel>
      <Separator id="workspace-resize-chat" className="workspace-resize" />
      <Panel id="centre" className="workspace-pane" defaultSize="40%" minSize={300}>
        <section className="pane-scroll" aria-label="Intentions and approvals" data-testid="pane-centre">
          {centre}
        </section>
      </Panel>
      <Separator id="workspace-resize-side" className="workspace-resize" />
      <Panel id="side" className="workspace-pane" defaultSize="33%" minSize={300}>
        <section
          className="pane-scroll side"
          aria-label="Changes, files, terminal and replay"
          data-testid="pane-side"
        >
          {side}
        </section>
      </Panel>
    </Group>
  );
}
