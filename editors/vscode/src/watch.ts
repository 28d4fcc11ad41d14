// Watching the folders whose changes change the server list: agx's receipts folder (every
// install, update and uninstall writes there) and each workspace folder's agx.lock.
//
// node's fs.watch rather than VS Code's file watcher: the receipts folder is outside the
// workspace, may not exist yet (nothing installed), and a test can then watch the real folder.

import * as fs from "node:fs";
import * as path from "node:path";

/** Calls `changed` (debounced) after any change under a folder. */
export class FolderWatch {
  private watcher: fs.FSWatcher | undefined;
  private closed = false;

  /**
   * `recursive`: the folder's subfolders too (receipts are `<publisher>/<name>.toml`).
   * `accept`: which file names count (all when absent).
   */
  constructor(
    readonly folder: string,
    private readonly recursive: boolean,
    private readonly changed: () => void,
    private readonly accept?: (name: string) => boolean,
  ) {
    this.attach();
  }

  /**
   * Watches the folder, or while it does not exist its nearest existing parent, until the
   * folder appears (agx creates its home and receipts folder on the first install).
   */
  private attach(): void {
    if (this.closed) {
      return;
    }
    this.watcher?.close();
    this.watcher = undefined;
    let target = this.folder;
    while (!isDir(target)) {
      const parent = path.dirname(target);
      if (parent === target) {
        return;
      }
      target = parent;
    }
    const watchingFolder = target === this.folder;
    try {
      this.watcher = fs.watch(target, { recursive: watchingFolder && this.recursive }, (_event, name) => {
        if (!watchingFolder) {
          // A parent changed: watch the nearest existing folder again (one nearer may have
          // appeared); once the folder itself exists, everything in it is new.
          this.attach();
          if (isDir(this.folder)) {
            this.changed();
          }
          return;
        }
        if (!isDir(this.folder)) {
          // The folder itself went away (an uninstall of the last package may remove it).
          this.attach();
          this.changed();
          return;
        }
        const file = name === null ? undefined : path.basename(name.toString());
        if (!this.accept || file === undefined || this.accept(file)) {
          this.changed();
        }
      });
      this.watcher.on("error", () => this.attach());
    } catch {
      this.watcher = undefined;
    }
  }

  dispose(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Turns bursts of calls into one call `delayMs` after the last (an install writes several files). */
export class Debouncer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly fire: () => void,
  ) {}

  trigger(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.delayMs);
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
  }
}
