// The Jaiph extension: highlighting comes from syntaxes/ (declared in
// package.json); everything else (diagnostics as you type, definition,
// references, hover, completion, outline, formatting, rename) comes from
// `jaiph lsp`, the language server built into the jaiph binary, which this
// client starts over stdio.
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

// jaiph.path: a bare name is looked up on PATH; a relative path (with a
// slash) is taken from the first workspace folder, so `./bin/jaiph` works in
// a checkout of jaiph-go.
function serverCommand(): string {
  const setting = vscode.workspace.getConfiguration('jaiph').get<string>('path') || 'jaiph';
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder && setting.includes('/') && !path.isAbsolute(setting)) {
    return path.join(folder.uri.fsPath, setting);
  }
  return setting;
}

function serverOptions(): ServerOptions {
  return { command: serverCommand(), args: ['lsp'], transport: TransportKind.stdio };
}

async function start(): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'jaiph' },
      { scheme: 'untitled', language: 'jaiph' },
    ],
  };
  client = new LanguageClient('jaiph', 'Jaiph', serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    // Highlighting still works without the server; say how to get the rest.
    void vscode.window.showErrorMessage(
      `Jaiph: could not start "${serverCommand()} lsp" (${err instanceof Error ? err.message : String(err)}). ` +
        'Install jaiph or set "jaiph.path".',
    );
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c && c.isRunning()) {
    await c.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('jaiph.restartServer', async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('jaiph.path')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
