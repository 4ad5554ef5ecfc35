// Entry point: mount the widget into a host page.

import { Announcer, labelLauncher, trapFocus } from "./a11y";
import { DraftStore } from "./drafts";
import { MessageList } from "./messages";
import { ChatSocket, type Frame } from "./socket";
import { plainText } from "./format";
import { TypingIndicator } from "./typing";

export interface WidgetConfig {
  url: string;
  token: string;
  conversationId: string;
  visitorName: string;
}

export function mount(host: HTMLElement, config: WidgetConfig): () => void {
  const root = document.createElement("section");
  root.className = "cw-root";
  root.setAttribute("aria-label", "Support chat");
  root.innerHTML =
    '<button class="cw-launcher" type="button"></button>' +
    '<div class="cw-panel" hidden><ul class="cw-list"></ul><p class="cw-typing" hidden></p>' +
    '<textarea class="cw-input" rows="2" aria-label="Message"></textarea>' +
    '<button class="cw-send" type="button">Send</button></div>';
  host.appendChild(root);

  const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
  const launcher = q<HTMLButtonElement>(".cw-launcher");
  const panel = q<HTMLDivElement>(".cw-panel");
  const input = q<HTMLTextAreaElement>(".cw-input");
  const list = new MessageList(q<HTMLUListElement>(".cw-list"));
  const announcer = new Announcer(root);
  const drafts = new DraftStore(config.conversationId);
  let unread = 0;

  const onFrame = (frame: Frame) => {
    if (frame.type === "message") {
      list.add({ id: frame.id, author: frame.author, fromVisitor: false, text: frame.text, sentAt: frame.sentAt });
      announcer.announce(`${frame.author}: ${plainText(frame.text)}`);
      if (panel.hidden) labelLauncher(launcher, ++unread);
    } else if (frame.type === "typing") {
      typing.showRemote(frame.author, frame.active);
    } else if (frame.type === "ack") {
      list.ack(frame.id);
    }
  };
  const socket = new ChatSocket({ url: config.url, token: config.token, onFrame });
  const typing = new TypingIndicator(socket, config.visitorName, q<HTMLParagraphElement>(".cw-typing"));

  input.value = drafts.load();
  input.addEventListener("input", () => {
    drafts.save(input.value);
    typing.onInput(input.value);
  });
  q<HTMLButtonElement>(".cw-send").addEventListener("click", () => {
    const text = input.value.trim();
    if (!text) return;
    const id = crypto.randomUUID();
    socket.send({ type: "message", id, author: config.visitorName, text, sentAt: Date.now() });
    list.add({ id, author: config.visitorName, fromVisitor: true, text, sentAt: Date.now(), pending: true });
    input.value = "";
    drafts.clear();
  });

  let release: (() => void) | null = null;
  launcher.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) {
      unread = 0;
      labelLauncher(launcher, 0);
      release = trapFocus(panel);
      input.focus();
    } else {
      release?.();
    }
  });
  labelLauncher(launcher, 0);
  socket.connect();

  return () => {
    socket.close();
    typing.dispose();
    release?.();
    root.remove();
  };
}
