// The websocket connection to one game (docs/protocol.md): says hello, passes on the server's
// messages, and reconnects by itself after a reload, a network loss or a server restart.

/** Close codes after which connecting again cannot help. */
const FINAL_CLOSES = new Set([4401, 4403, 4404]);
const PING_MS = 25000;

/**
 * Events (CustomEvent, the message in `detail`): "welcome", "state", "error", and "status" with
 * detail "connecting", "open" (hello sent), "closed" (will retry) or "failed" (will not retry).
 */
export class GameSocket extends EventTarget {
  constructor(key, hello) {
    super();
    this.key = key;
    this.hello = hello;
    this.socket = null;
    this.retries = 0;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
    this.status = "connecting";
    this.wake = () => this.reconnectNow();
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.key)}`;
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  connect() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.setStatus("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", ...this.hello }));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.retries = 0;
        this.setStatus("open");
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      }
      this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.pinger);
      this.socket = null;
      if (this.stopped) return;
      if (FINAL_CLOSES.has(event.code)) {
        this.setStatus("failed");
        return;
      }
      this.setStatus("closed");
      const delay = Math.min(500 * 2 ** this.retries, 8000);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Connect again at once if the connection is down (the network came back, the tab shows). */
  reconnectNow() {
    if (this.stopped || this.status === "failed") return;
    if (!this.socket) this.connect();
  }

  /** Start again with another hello (e.g. as a spectator after a refused token). */
  restart(hello) {
    this.hello = hello;
    const old = this.socket;
    this.socket = null;
    if (old) old.close(1000);
    this.connect();
  }

  /** Send a message; false when the connection is not open (the caller keeps its page as is). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener("online", this.wake);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
  }
}
